//! `rowkey-etcd` against a real 3-member etcd cluster on loopback, started by
//! `.ci/servers/start.sh` (which installs Debian's etcd-server when it is missing). Nothing is
//! mocked, and nothing is skipped: without a cluster the tests fail and say how to get one.
//!
//! For each layout (salted, hash-prefixed, desc strings, salted text) the rows are loaded, then
//! random scans are read page by page with `read_page` (random page sizes, each page resuming after
//! the last key read) and compared with a brute-force filter over the loaded values: no row missing,
//! none twice, none extra where the plan is exact, pages in key order. One test SIGKILLs the
//! leader in the middle of a large paged scan; the scan resumes on the survivors and returns
//! every row exactly once. Another reads through a proxy per member (`tests/common/proxy.rs`)
//! with `PagedRead`: one member is isolated (its connections cut and refused) and later another is
//! killed, and the read fails over by itself and returns every row exactly once.
//!
//! 2,000 rows and 40 scans per layout; 100,000 rows and 1,000 scans with `ROWKEY_SOAK=1`.

use std::collections::BTreeSet;
use std::process::Command;
use std::sync::MutexGuard;
use std::time::Duration;

use etcd_client::{Client, ConnectOptions, GetOptions, KvClient, Txn, TxnOp};
use rowkey::retry::RetryPolicy;
use rowkey::{DecodeKey, RowKey, Scan};
use rowkey_etcd::{range_request, read_page, PagedRead};

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../../tests/common/layouts.rs"]
mod layouts;
#[allow(dead_code)]
#[path = "../../tests/common/proxy.rs"]
mod proxy;
#[path = "../../tests/common/servers.rs"]
mod servers;
use common::{scaled, Rng};
use layouts::{check, draw, rows_read, Layout, Salted, HASHED, NAMES, SALTED, TEXT};
use servers::runtime;

/// The cluster's client endpoints, from `.ci/servers/start.sh`.
struct Cluster {
    endpoints: Vec<String>,
    servers_dir: String,
}

/// One test at a time: they share the cluster, and each wipes it before loading its rows.
fn cluster() -> (MutexGuard<'static, ()>, Cluster) {
    let (guard, exports) =
        servers::start("the etcd cluster did not start. These tests need Debian's etcd-server");
    let endpoints = servers::export(&exports, "ROWKEY_ETCD_ENDPOINTS")
        .split(',')
        .map(|e| format!("http://{e}"))
        .collect();
    let servers_dir = servers::servers_dir();
    (
        guard,
        Cluster {
            endpoints,
            servers_dir,
        },
    )
}

async fn connect(endpoints: &[String]) -> Result<Client, etcd_client::Error> {
    let options = ConnectOptions::new()
        .with_connect_timeout(Duration::from_secs(2))
        .with_timeout(Duration::from_secs(5));
    Client::connect(endpoints, Some(options)).await
}

/// Deletes every key, then puts `keys` in transactions of 100 puts (etcd allows 128 a txn).
async fn load(client: &mut Client, keys: &[Vec<u8>]) {
    client
        .delete(
            b"\0".to_vec(),
            Some(etcd_client::DeleteOptions::new().with_from_key()),
        )
        .await
        .unwrap();
    for chunk in keys.chunks(100) {
        let puts: Vec<TxnOp> = chunk
            .iter()
            .map(|k| TxnOp::put(k.clone(), b"v".to_vec(), None))
            .collect();
        client.txn(Txn::new().and_then(puts)).await.unwrap();
    }
    let all = client
        .get(
            b"\0".to_vec(),
            Some(GetOptions::new().with_from_key().with_count_only()),
        )
        .await
        .unwrap();
    assert_eq!(all.count() as usize, keys.len(), "every row loaded");
}

/// Reads `plan` page by page, `page` rows at most a request.
async fn read_all<K: ?Sized>(kv: &mut KvClient, plan: &Scan<K>, page: i64) -> Vec<Vec<u8>> {
    let mut rows = Vec::new();
    let mut next = Some(plan.clone());
    while let Some(rest) = next {
        let got = read_page(kv, &rest, page).await.unwrap();
        rows.extend(got.rows.iter().map(|kv| kv.key().to_vec()));
        next = got.rest;
    }
    rows
}

fn run<K: RowKey + for<'k> DecodeKey<'k>>(layout: &Layout<K>, seed: u64) {
    let (_guard, cluster) = cluster();
    let (rows, scans) = (scaled(2_000, 100_000), scaled(40, 1_000));
    let mut rng = Rng(seed);
    let (values, keys) = draw(layout, rows, &mut rng, |v| v.to_vec().unwrap());
    let name = layout.name;
    runtime().block_on(async {
        let mut client = connect(&cluster.endpoints)
            .await
            .expect("connect to the cluster");
        load(&mut client, &keys).await;
        let mut kv = client.kv_client();
        let mut exact = 0;
        let started = std::time::Instant::now();
        println!("{name}: {} rows loaded", keys.len());
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
            // Pages of 1 to 10,000 rows, as many of each order of magnitude, but at most about
            // 20 pages of the rows the plan's ranges hold: every request is a round of the
            // cluster, and an inexact plan reads more rows than it keeps.
            let page = 10f64.powf(rng.below(4_000) as f64 / 1_000.0) as i64;
            let page = page.max(rows_read(&keys, &plan) as i64 / 20 + 1);
            let got = read_all(&mut kv, &plan, page).await;
            // No row twice, none missing, and every row returned is one the plan asks for:
            // `read_page` drops the rest of an inexact plan's reads, and an exact plan reads
            // nothing else.
            check(name, i, "read_page", &plan, &expected, &got);
            // Pages come back in the plan's range order, which is key order.
            assert!(
                got.windows(2).all(|w| w[0] < w[1]),
                "{name} scan {i}: out of order"
            );
            exact += usize::from(plan.is_exact());
        }
        println!("{name}: {} rows, {scans} scans, {exact} exact", keys.len());
    });
}

#[test]
fn salted_scans_read_every_row_once_page_by_page() {
    run(&SALTED, 21);
}

#[test]
fn hash_prefixed_scans_read_every_row_once_page_by_page() {
    run(&HASHED, 22);
}

#[test]
fn desc_string_scans_read_every_row_once_page_by_page() {
    run(&NAMES, 23);
}

#[test]
fn salted_text_scans_read_every_row_once_page_by_page() {
    run(&TEXT, 24);
}

#[test]
fn range_requests_never_read_past_the_plan() {
    // Keys below, inside and after a plan, and the edges etcd gives meaning to.
    let (_guard, cluster) = cluster();
    runtime().block_on(async {
        let mut client = connect(&cluster.endpoints).await.unwrap();
        let keys: Vec<Vec<u8>> = vec![
            vec![0],
            vec![0, 0],
            vec![1],
            vec![1, 0xFF],
            vec![2],
            vec![0xFF, 0xFF],
        ];
        load(&mut client, &keys).await;
        let read = |r: rowkey::KeyRange| {
            let mut client = client.clone();
            async move {
                match range_request(&r) {
                    None => Vec::new(),
                    Some((key, options)) => {
                        let got = client.get(key, Some(options)).await.unwrap();
                        got.kvs().iter().map(|kv| kv.key().to_vec()).collect()
                    }
                }
            }
        };
        for (start, stop) in [
            (&[][..], &[][..]),
            (&[][..], &[0][..]),
            (&[][..], &[0, 0][..]),
            (&[0][..], &[1][..]),
            (&[1][..], &[][..]),
            (&[0xFF, 0xFF][..], &[][..]),
            (&[2][..], &[1][..]),
        ] {
            let range = rowkey::KeyRange::new(start, stop);
            let expected: Vec<Vec<u8>> =
                keys.iter().filter(|k| range.contains(k)).cloned().collect();
            assert_eq!(read(range.clone()).await, expected, "{range:?}");
        }
    });
}

/// `rows` salted keys drawn from `seed`, distinct and sorted.
fn salted_keys(rows: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng(seed);
    let keys: BTreeSet<Vec<u8>> = (0..rows)
        .map(|_| {
            let user = rng.below(30) as u32;
            let ts = rng.below(1_000_000) as i64;
            Salted { user, ts }.to_vec().unwrap()
        })
        .collect();
    keys.into_iter().collect()
}

/// A proxy in front of each member (the client reaches members only through them), and their
/// endpoints.
async fn proxied(cluster: &Cluster) -> (Vec<proxy::Proxy>, Vec<String>) {
    let mut proxies = Vec::new();
    for endpoint in &cluster.endpoints {
        let upstream = endpoint.trim_start_matches("http://").parse().unwrap();
        proxies.push(proxy::Proxy::start(upstream, proxy::Faults::NONE).await);
    }
    let endpoints = proxies
        .iter()
        .map(|p| format!("http://{}", p.addr))
        .collect();
    (proxies, endpoints)
}

/// The pid of the etcd member that leads now, and the endpoints of the others.
async fn leader(cluster: &Cluster) -> (u32, Vec<String>) {
    let mut survivors = Vec::new();
    let mut leader_pid = None;
    for (i, endpoint) in cluster.endpoints.iter().enumerate() {
        let mut client = connect(std::slice::from_ref(endpoint)).await.unwrap();
        let status = client.status().await.unwrap();
        if status.header().map(|h| h.member_id()) == Some(status.leader()) {
            let pid_file = format!("{}/pids/etcd-rk{i}.pid", cluster.servers_dir);
            let pid = std::fs::read_to_string(&pid_file).expect("the leader's pid file");
            leader_pid = Some(pid.trim().parse().unwrap());
        } else {
            survivors.push(endpoint.clone());
        }
    }
    (leader_pid.expect("a leader"), survivors)
}

#[test]
fn a_paged_scan_survives_the_leader_being_killed() {
    let (_guard, cluster) = cluster();
    let rows = scaled(5_000, 20_000);
    let keys = salted_keys(rows, 25);
    let plan: Scan<Salted> = Salted::scan().into();
    runtime().block_on(async {
        let mut client = connect(&cluster.endpoints).await.unwrap();
        load(&mut client, &keys).await;
        let (leader_pid, survivors) = leader(&cluster).await;
        let mut kv = client.kv_client();
        let (mut got, mut next, mut pages, mut retries) = (Vec::new(), Some(plan.clone()), 0, 0);
        let mut killed = false;
        while let Some(rest) = next.clone() {
            if pages == 5 && !killed {
                killed = true;
                // The middle of the scan: SIGKILL the leader.
                let status = Command::new("kill")
                    .args(["-KILL", &leader_pid.to_string()])
                    .status();
                assert!(status.unwrap().success(), "kill the leader");
            }
            match read_page(&mut kv, &rest, 200).await {
                Ok(page) => {
                    got.extend(page.rows.iter().map(|kv| kv.key().to_vec()));
                    next = page.rest;
                    pages += 1;
                }
                Err(e) => {
                    // A client that lists the dead member fails rather than failing over: resume
                    // the same plan on a client of the survivors, once they have a leader again.
                    retries += 1;
                    assert!(retries < 50, "no progress after the leader died: {e}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    if let Ok(c) = connect(&survivors).await {
                        kv = c.kv_client();
                    }
                }
            }
        }
        assert!(pages > 5, "pages were read after the leader died");
        assert_eq!(got, keys, "every row once, in order, after the leader died");
        println!(
            "{} rows in {pages} pages; {retries} reads failed after the kill and resumed",
            keys.len()
        );
    });
}

#[test]
fn a_paged_read_fails_over_when_a_member_is_isolated_and_another_is_killed() {
    let (_guard, cluster) = cluster();
    let rows = scaled(5_000, 20_000);
    let keys = salted_keys(rows, 26);
    runtime().block_on(async {
        let mut client = connect(&cluster.endpoints).await.unwrap();
        load(&mut client, &keys).await;
        let (proxies, endpoints) = proxied(&cluster).await;
        let member_of = |endpoint: &str| endpoints.iter().position(|e| e == endpoint).unwrap();
        let policy = RetryPolicy::default()
            .with_attempts(30)
            .with_backoff(Duration::from_millis(20), Duration::from_millis(500))
            .with_deadline(Duration::from_secs(3));
        let plan: Scan<Salted> = Salted::scan().into();
        let mut read = PagedRead::new(&endpoints, plan, 200).with_policy(policy);
        let (mut got, mut pages) = (Vec::new(), 0);
        let (mut isolated, mut killed) = (None, None);
        while let Some(page) = read.next_page().await.expect("the read fails over") {
            got.extend(page.iter().map(|kv| kv.key().to_vec()));
            pages += 1;
            if pages == 5 {
                // Isolate the member the read is using: its connections cut, new ones refused.
                let member = member_of(read.endpoint());
                proxies[member].refuse(true);
                proxies[member].cut_all();
                isolated = Some(member);
            }
            if pages == 10 {
                // Kill the member it moved to.
                let member = member_of(read.endpoint());
                assert_ne!(Some(member), isolated, "the read left the isolated member");
                let pid_file = format!("{}/pids/etcd-rk{member}.pid", cluster.servers_dir);
                let pid = std::fs::read_to_string(&pid_file).expect("the member's pid file");
                let status = Command::new("kill").args(["-KILL", pid.trim()]).status();
                assert!(status.unwrap().success(), "kill the member");
                killed = Some(member);
            }
        }
        let (isolated, killed) = (isolated.unwrap(), killed.unwrap());
        assert!(pages > 10, "pages were read after both faults");
        let last = member_of(read.endpoint());
        assert!(
            last != isolated && last != killed,
            "the rest was read through the third member"
        );
        assert!(read.failovers() >= 2, "{} failovers", read.failovers());
        assert_eq!(got, keys, "every row once, in order, through both faults");
        println!(
            "{} rows in {pages} pages through an isolated and a killed member: {} failovers, \
             {} connections refused or cut at the isolated member",
            keys.len(),
            read.failovers(),
            proxies[isolated].connections(),
        );
        proxies[isolated].refuse(false);
    });
}

#[test]
fn a_paged_read_moves_on_from_a_member_that_stops_answering() {
    let (_guard, cluster) = cluster();
    let keys = salted_keys(2_000, 27);
    runtime().block_on(async {
        let mut client = connect(&cluster.endpoints).await.unwrap();
        load(&mut client, &keys).await;
        let (proxies, endpoints) = proxied(&cluster).await;
        let deadline = Duration::from_millis(500);
        let policy = RetryPolicy::default()
            .with_attempts(10)
            .with_backoff(Duration::from_millis(10), Duration::from_millis(100))
            .with_deadline(deadline);
        let plan: Scan<Salted> = Salted::scan().into();
        let mut read = PagedRead::new(&endpoints, plan, 100).with_policy(policy);
        let (mut got, mut pages, mut stalled) = (Vec::new(), 0, None);
        while let Some(page) = read.next_page().await.expect("the read moves on") {
            got.extend(page.iter().map(|kv| kv.key().to_vec()));
            pages += 1;
            if pages == 3 {
                // The member in use stops answering: no data, no error, the connection open.
                let member = endpoints.iter().position(|e| e == read.endpoint()).unwrap();
                proxies[member].stall(true);
                stalled = Some(member);
            }
        }
        let stalled = stalled.unwrap();
        let last = endpoints.iter().position(|e| e == read.endpoint()).unwrap();
        assert_ne!(last, stalled, "the read left the stalled member");
        assert!(read.failovers() >= 1);
        assert_eq!(
            got, keys,
            "every row once, in order, past the stalled member"
        );
        proxies[stalled].stall(false);
    });
}
