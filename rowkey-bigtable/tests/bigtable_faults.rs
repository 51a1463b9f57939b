//! `rowkey_bigtable::read_rows` survives faults a real network produces, against the Bigtable
//! emulator behind a fault-injecting proxy (`tests/common/proxy.rs`) on loopback: whole-table
//! reads of four layouts (salted, hash-prefixed, desc strings, salted text) cut at least 20 times
//! each return every row exactly once, in order (merged after the salt), checked against the rows
//! written; a server that stalls past the deadline is tried again, not waited on; a permanent
//! error is not retried; a read that gives up returns the error and nothing after it.
//!
//! The cuts are drawn from a seed: connection n is cut after the same number of bytes in every
//! run. 10,000 rows a layout; 100,000 with `ROWKEY_SOAK=1`.

use std::time::{Duration, Instant};

use bigtable_rs::bigtable::{BigTable, Error};
use bigtable_rs::google::bigtable::v2::ReadRowsRequest;
use futures::StreamExt;
use rowkey::retry::RetryPolicy;
use rowkey::{DecodeKey, RowKey, Scan};
use rowkey_bigtable::read_rows_with;

#[path = "../../tests/common/mod.rs"]
mod common;
// Each binary uses part of the shared helpers.
#[allow(dead_code)]
#[path = "../../tests/common/layouts.rs"]
mod layouts;
#[path = "../../tests/common/proxy.rs"]
mod proxy;
#[path = "../../tests/common/servers.rs"]
mod servers;
#[allow(dead_code)]
#[path = "common/bigtable.rs"]
mod setup;
use common::{scaled, Rng};
use layouts::{draw, Layout, HASHED, NAMES, SALTED, TEXT};
use proxy::{Faults, Proxy};
use servers::runtime;
use setup::{connect, create_table, emulator, write};

/// Tries enough that no page runs out of them under the cuts; short waits.
fn patient() -> RetryPolicy {
    RetryPolicy::default()
        .with_attempts(40)
        .with_backoff(Duration::from_millis(5), Duration::from_millis(100))
        .with_deadline(Duration::from_secs(20))
}

/// Every item of a read of `plan`: the rows' keys, then the error that ended it, if one did.
async fn read_all<K: ?Sized + 'static>(
    client: &BigTable,
    table: &str,
    plan: &Scan<K>,
    policy: &RetryPolicy,
) -> (Vec<Vec<u8>>, Option<Error>) {
    let request = ReadRowsRequest {
        table_name: client.get_full_table_name(table),
        // Small pages: a page is read again whole when a cut hits it.
        rows_limit: 100,
        ..Default::default()
    };
    let mut rows = read_rows_with(client, &request, plan, 16, policy).expect("keys within 4 KiB");
    let mut keys = Vec::new();
    while let Some(item) = rows.next().await {
        match item {
            Ok((key, _)) => keys.push(key),
            Err(e) => {
                // Nothing after the error.
                assert!(rows.next().await.is_none(), "an item after the error {e}");
                return (keys, Some(e));
            }
        }
    }
    (keys, None)
}

/// `keys` as a read of the whole table gives them: merged by the key after the salt.
fn in_read_order(mut keys: Vec<Vec<u8>>, salt_len: usize) -> Vec<Vec<u8>> {
    keys.sort_by(|a, b| a[salt_len..].cmp(&b[salt_len..]).then(a.cmp(b)));
    keys
}

fn cut_reads_return_every_row_once<K: RowKey + for<'k> DecodeKey<'k> + 'static>(
    layout: &Layout<K>,
    plan: Scan<K>,
    seed: u64,
) {
    let (_guard, addr) = emulator();
    let mut rng = Rng(seed);
    let (_, keys) = draw(layout, scaled(10_000, 100_000), &mut rng, |v| {
        v.to_vec().unwrap()
    });
    let table = format!("faults-{}", layout.name.replace(' ', "-"));
    runtime().block_on(async {
        create_table(&addr, &table, K::split_keys(16)).await;
        write(&mut connect(&addr), &table, &keys).await;
        let expected = in_read_order(keys.clone(), plan.salt_len());
        let upstream = addr.parse().expect("the emulator's address");

        // The same read without faults, through the proxy, for the slowdown.
        let clean = Proxy::start(upstream, Faults::NONE).await;
        let started = Instant::now();
        let (got, error) =
            read_all(&connect(&clean.addr.to_string()), &table, &plan, &patient()).await;
        let clean_time = started.elapsed();
        assert!(error.is_none(), "{error:?}");
        assert!(got == expected, "{}: the clean read differs", layout.name);

        let faults = Faults {
            seed,
            cut_after: Some((4 * 1024, 16 * 1024)),
            max_cuts: if common::soak() { 60 } else { 25 },
        };
        let cutting = Proxy::start(upstream, faults).await;
        let started = Instant::now();
        let (got, error) = read_all(
            &connect(&cutting.addr.to_string()),
            &table,
            &plan,
            &patient(),
        )
        .await;
        let cut_time = started.elapsed();
        assert!(
            error.is_none(),
            "{}: {error:?} after {} rows",
            layout.name,
            got.len()
        );
        let cuts = cutting.cuts();
        assert!(cuts >= 20, "{}: only {cuts} cuts", layout.name);
        let repeated = got.len() - got.iter().collect::<std::collections::BTreeSet<_>>().len();
        let lost = expected.len().saturating_sub(got.len() - repeated);
        assert_eq!((lost, repeated), (0, 0), "{}", layout.name);
        assert!(got == expected, "{}: rows out of order", layout.name);
        println!(
            "{}: {} rows, {cuts} cuts ({} connections): 0 lost, 0 repeated; {:.2?} against {:.2?} \
             without faults ({:.2}x)",
            layout.name,
            got.len(),
            cutting.connections(),
            cut_time,
            clean_time,
            cut_time.as_secs_f64() / clean_time.as_secs_f64(),
        );
    });
}

#[test]
fn salted_reads_cut_20_times_return_every_row_once_merged() {
    cut_reads_return_every_row_once(&SALTED, layouts::Salted::scan().into(), 31);
}

#[test]
fn hash_prefixed_reads_cut_20_times_return_every_row_once() {
    cut_reads_return_every_row_once(&HASHED, layouts::Hashed::scan().into(), 32);
}

#[test]
fn desc_string_reads_cut_20_times_return_every_row_once() {
    cut_reads_return_every_row_once(&NAMES, layouts::Names::scan().into(), 33);
}

#[test]
fn salted_text_reads_cut_20_times_return_every_row_once_merged() {
    cut_reads_return_every_row_once(&TEXT, layouts::Text::scan().into(), 34);
}

/// A table of 2,000 salted rows behind a proxy that passes everything until told otherwise.
async fn small_table(addr: &str, table: &str) -> (Proxy, Vec<Vec<u8>>) {
    let mut rng = Rng(35);
    let (_, keys) = draw(&SALTED, 2_000, &mut rng, |v| v.to_vec().unwrap());
    create_table(addr, table, layouts::Salted::split_keys(16)).await;
    write(&mut connect(addr), table, &keys).await;
    let proxy = Proxy::start(addr.parse().unwrap(), Faults::NONE).await;
    (proxy, in_read_order(keys, 1))
}

#[test]
fn a_server_that_stalls_past_the_deadline_is_tried_again_not_waited_on() {
    let (_guard, addr) = emulator();
    runtime().block_on(async {
        let (proxy, expected) = small_table(&addr, "faults-stall").await;
        let plan: Scan<layouts::Salted> = layouts::Salted::scan().into();
        let client = connect(&proxy.addr.to_string());
        let deadline = Duration::from_millis(300);

        // One try: the stalled request fails at its deadline instead of hanging.
        proxy.stall(true);
        let started = Instant::now();
        let (got, error) = read_all(
            &client,
            "faults-stall",
            &plan,
            &RetryPolicy::never().with_deadline(deadline),
        )
        .await;
        assert!(got.is_empty());
        assert!(matches!(error, Some(Error::TimeoutError(_))), "{error:?}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );

        // Retried: the read outlasts a stall of four deadlines and returns every row once.
        let unstall = proxy.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(1_200)).await;
            unstall.stall(false);
        });
        let started = Instant::now();
        let policy = patient().with_deadline(deadline);
        let (got, error) = read_all(&client, "faults-stall", &plan, &policy).await;
        assert!(error.is_none(), "{error:?}");
        assert!(started.elapsed() >= Duration::from_millis(1_200));
        assert!(got == expected, "{} rows", got.len());
    });
}

#[test]
fn a_permanent_error_is_returned_at_once_and_a_read_that_gives_up_ends_with_its_error() {
    let (_guard, addr) = emulator();
    runtime().block_on(async {
        let (proxy, _) = small_table(&addr, "faults-permanent").await;
        let plan: Scan<layouts::Salted> = layouts::Salted::scan().into();
        let client = connect(&proxy.addr.to_string());

        // NOT_FOUND is not retried: with a first backoff of 2 s, a retry would show.
        let slow =
            RetryPolicy::default().with_backoff(Duration::from_secs(2), Duration::from_secs(2));
        let started = Instant::now();
        let (got, error) = read_all(&client, "no-such-table", &plan, &slow).await;
        assert!(got.is_empty());
        match error {
            Some(Error::RpcError(status)) => assert_eq!(status.code(), tonic::Code::NotFound),
            other => panic!("{other:?}"),
        }
        assert!(
            started.elapsed() < Duration::from_millis(1_500),
            "{:?}",
            started.elapsed()
        );

        // Every connection cut and new ones refused: three tries, then the error, and the read
        // ends with it.
        proxy.refuse(true);
        proxy.cut_all();
        let three = RetryPolicy::default()
            .with_attempts(3)
            .with_backoff(Duration::from_millis(10), Duration::from_millis(20))
            .with_deadline(Duration::from_secs(2));
        let (got, error) = read_all(&client, "faults-permanent", &plan, &three).await;
        assert!(got.is_empty(), "{} rows", got.len());
        assert!(error.is_some());
        proxy.refuse(false);
    });
}
