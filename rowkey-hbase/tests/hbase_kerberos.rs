//! Kerberos against the test HBase's secured Thrift2 servers and its KDC (Apache Kerby, realm
//! `ROWKEY.TEST`; `.ci/servers/hbase.sh`): SASL GSSAPI over TCP at `auth-conf`, and SPNEGO over
//! HTTPS. Each mode creates a pre-split table, writes rows of two cells, reads (a salted plan
//! merged in order, by brute force), gets and deletes rows; each refusal says what to change: no ticket, an expired one, a principal the
//! KDC does not know, a realm without a KDC, a quality of protection the server does not take, a
//! client without Kerberos against a server that wants it, and the reverse. An expired ticket
//! is renewed from a client keytab.
//!
//! MIT krb5 reads its settings from the environment (`KRB5_CONFIG`, `KRB5CCNAME`,
//! `KRB5_CLIENT_KTNAME`), which is the process's: so each case runs in a process of its own,
//! this binary again with the case's environment (`hbase_kerberos CASE`), and the first process
//! only starts them and reports.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::Server;
use rowkey::{RowKey, Scan};
use rowkey_hbase::{row_key, Cell, Columns, Endpoint, ErrorKind, HBase, Qop, Row};

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 4))]
struct Event {
    user: u32,
    ts: u64,
}

/// The cases, each run in a process of its own: its name, and whether it has the client
/// keytab (`KRB5_CLIENT_KTNAME`).
const CASES: [(&str, bool); 5] = [
    ("sasl", true),
    ("spnego", true),
    ("refusals", true),
    ("no_ticket", false),
    ("expired", false),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let server = Server::get();
    let dir = PathBuf::from(&server.kerberos);
    match args.get(1).map(String::as_str) {
        Some("sasl") => sasl(&server, &dir),
        Some("spnego") => spnego(&server, &dir),
        Some("refusals") => refusals(&server, &dir),
        Some("no_ticket") => no_ticket(&server, &dir),
        Some("expired") => expired(&server, &dir),
        Some("renewed") => renewed(&server, &dir),
        // cargo test's own flags (`--nocapture`, a filter): run every case.
        _ => every_case(&server, &dir),
    }
}

/// Runs each case in a process of its own, with its environment; fails if one does.
fn every_case(server: &Server, dir: &Path) {
    let scratch = std::env::temp_dir().join(format!("rowkey-kerberos-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut failed = Vec::new();
    for (case, keytab) in CASES {
        let started = Instant::now();
        let out = run_case(server, dir, &scratch, case, keytab);
        let took = started.elapsed();
        println!(
            "test {case} ... {} ({took:.1?})",
            if out.status.success() { "ok" } else { "FAILED" }
        );
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.status.success() {
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
            failed.push(case);
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failed.is_empty(), "Kerberos cases failed: {failed:?}");
    println!("test result: ok. {} passed", CASES.len());
}

fn run_case(
    server: &Server,
    dir: &Path,
    scratch: &Path,
    case: &str,
    keytab: bool,
) -> std::process::Output {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .arg(case)
        .env("KRB5_CONFIG", dir.join("krb5.conf"))
        .env(
            "KRB5CCNAME",
            format!("FILE:{}", scratch.join(case).display()),
        )
        .env_remove("KRB5_CLIENT_KTNAME");
    for (name, value) in [
        ("ROWKEY_HBASE_THRIFT", &server.thrift),
        ("ROWKEY_HBASE_THRIFT_FRAMED_COMPACT", &server.framed_compact),
        ("ROWKEY_HBASE_THRIFT_HTTP", &server.http),
        ("ROWKEY_HBASE_THRIFT_HTTPS", &server.https),
        ("ROWKEY_HBASE_CA", &server.ca),
        ("ROWKEY_HBASE_THRIFT_SASL", &server.sasl),
        ("ROWKEY_HBASE_THRIFT_SPNEGO", &server.spnego),
        ("ROWKEY_HBASE_KERBEROS", &server.kerberos),
        ("ROWKEY_HBASE_CONTROL", &server.control),
    ] {
        command.env(name, value);
    }
    if keytab {
        command.env("KRB5_CLIENT_KTNAME", dir.join("client.keytab"));
    }
    command.output().unwrap()
}

/// The name in the secured servers' principals (this machine's, as HBase finds it).
fn host(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("host"))
        .unwrap()
        .trim()
        .to_string()
}

fn sasl_endpoint(server: &Server, dir: &Path) -> Endpoint {
    Endpoint::tcp(&server.sasl).with_kerberos(format!("thrift/{}@ROWKEY.TEST", host(dir)))
}

fn spnego_endpoint(server: &Server, dir: &Path) -> Endpoint {
    Endpoint::https(&server.spnego)
        .with_ca_file(&server.ca)
        .with_kerberos(format!("HTTP/{}@ROWKEY.TEST", host(dir)))
}

/// A table of this process's own, pre-split at the salt's buckets, created through `hbase`.
fn table(hbase: &mut HBase, name: &str) -> String {
    let t = format!("kerberos_{name}_{}", std::process::id());
    hbase.create_table(&t, "d", &Event::split_keys(4)).unwrap();
    assert_eq!(hbase.region_starts(&t).unwrap(), Event::split_keys(4));
    t
}

/// Rows of two cells written, a salted plan read back against brute force, rows fetched by key
/// and deleted, all through `hbase`.
fn rows_round_trip(hbase: &mut HBase, t: &str) {
    let events: Vec<Event> = (0..2_000u32)
        .map(|i| Event {
            user: i % 7,
            ts: 1_700_000_000_000 + u64::from(i * 7919 % 3_000),
        })
        .collect();
    let rows: Vec<Row> = events
        .iter()
        .map(|e| {
            Row::new(
                row_key(e).unwrap(),
                vec![
                    Cell::new("d", "a", format!("{e:?}")),
                    Cell::new("d", "b", e.ts.to_be_bytes().to_vec()),
                ],
            )
        })
        .collect();
    for batch in rows.chunks(500) {
        hbase.put(t, batch).unwrap();
    }
    let plan: Scan<Event> = Event::scan().user(3).into();
    let got: Vec<Event> = hbase
        .read_rows(t, &plan)
        .unwrap()
        .map(|r| {
            let r = r.unwrap();
            assert_eq!(r.cells.len(), 2, "{r:?}");
            Event::decode(&r.key).unwrap()
        })
        .collect();
    let mut expected: Vec<Event> = events
        .iter()
        .filter(|e| plan.matches(&e.to_vec().unwrap()))
        .cloned()
        .collect();
    expected.sort_by_key(|e| e.to_vec().unwrap()[1..].to_vec());
    expected.dedup();
    assert_eq!(got, expected);
    let key = row_key(&events[10]).unwrap();
    let fetched = hbase
        .get_rows(t, std::slice::from_ref(&key), &Columns::all())
        .unwrap();
    assert_eq!(
        fetched[0].as_ref().unwrap().value(b"d", b"a"),
        Some(format!("{:?}", events[10]).as_bytes())
    );
    hbase.delete_rows(t, std::slice::from_ref(&key)).unwrap();
    assert_eq!(
        hbase
            .get_rows(t, std::slice::from_ref(&key), &Columns::all())
            .unwrap(),
        [None]
    );
}

/// SASL GSSAPI at each quality of protection the server may ask (the server restarted at
/// each), then at auth-conf as asked and as the strongest offered; auth-int refused by a server
/// that takes auth-conf alone.
fn sasl(server: &Server, dir: &Path) {
    for (qop, name) in [
        (Qop::Auth, "auth"),
        (Qop::AuthInt, "auth-int"),
        (Qop::AuthConf, "auth-conf"),
    ] {
        server.control("POST", &format!("/restart-thrift?mode=sasl&qop={name}"));
        let mut hbase = HBase::open(sasl_endpoint(server, dir).with_qop(qop)).unwrap();
        let t = table(&mut hbase, &name.replace('-', "_"));
        rows_round_trip(&mut hbase, &t);
        println!("SASL at {name}: rows written, read, fetched and deleted");
    }
    // No qop asked: the strongest the server offers.
    let mut strongest = HBase::open(sasl_endpoint(server, dir)).unwrap();
    table(&mut strongest, "strongest");
    let err = HBase::open(sasl_endpoint(server, dir).with_qop(Qop::AuthInt)).unwrap_err();
    println!("auth-int against auth-conf: {err}");
    assert_eq!(err.kind(), ErrorKind::Config, "{err}");
    assert!(
        err.to_string()
            .contains("the server takes qop auth-conf (hbase.thrift.security.qop), not auth-int"),
        "{err}"
    );
}

fn spnego(server: &Server, dir: &Path) {
    let mut hbase = HBase::open(spnego_endpoint(server, dir)).unwrap();
    let t = table(&mut hbase, "spnego");
    rows_round_trip(&mut hbase, &t);
}

/// Each refusal with a ticket at hand, in bounded time, saying what to change.
fn refusals(server: &Server, dir: &Path) {
    let timeout = Duration::from_secs(5);
    let cases = [
        (
            "a principal the KDC does not know",
            Endpoint::tcp(&server.sasl).with_kerberos("thrift/nowhere@ROWKEY.TEST"),
            &[ErrorKind::Auth][..],
            "the KDC knows no principal thrift/nowhere@ROWKEY.TEST",
        ),
        (
            "a realm without a KDC",
            Endpoint::tcp(&server.sasl).with_kerberos("thrift/localhost@ELSEWHERE.TEST"),
            &[ErrorKind::Auth],
            "has no way to the realm of thrift/localhost@ELSEWHERE.TEST",
        ),
        (
            // The server waits for the rest of a SASL message it cannot read, or closes the
            // connection: the connect timeout ends the first.
            "no Kerberos against a SASL server",
            Endpoint::tcp(&server.sasl),
            &[ErrorKind::Timeout, ErrorKind::Mismatch],
            "hbase.thrift.security.qop for Kerberos",
        ),
        (
            // The plain server reads SASL's first message as the length of a 16 MB request
            // and waits for it (the connect timeout ends it), or closes the connection.
            "Kerberos against a server without it",
            sasl_endpoint(server, dir).with_connect_timeout(timeout),
            &[ErrorKind::Timeout, ErrorKind::Mismatch],
            "does the server speak Kerberos over TCP",
        ),
        (
            "no Kerberos against a SPNEGO server",
            Endpoint::https(&server.spnego).with_ca_file(&server.ca),
            &[ErrorKind::Auth],
            "the server asks for Kerberos (SPNEGO",
        ),
    ];
    for (i, (name, endpoint, kinds, says)) in cases.into_iter().enumerate() {
        // The fourth case points the SASL client at the plain server.
        let endpoint = if i == 3 {
            Endpoint::tcp(&server.thrift).with_kerberos(endpoint.kerberos().unwrap())
        } else {
            endpoint
        };
        let started = Instant::now();
        let err = HBase::open(endpoint.with_connect_timeout(timeout)).unwrap_err();
        let took = started.elapsed();
        println!("{name}: {:?} in {took:.1?}: {err}", err.kind());
        assert!(kinds.contains(&err.kind()), "{name}: {err}");
        assert!(err.to_string().contains(says), "{name}: {err}");
        assert!(took < timeout + Duration::from_secs(2), "{name}: {took:?}");
    }
}

/// No ticket cache and no keytab: both modes say so.
fn no_ticket(server: &Server, dir: &Path) {
    for endpoint in [sasl_endpoint(server, dir), spnego_endpoint(server, dir)] {
        let err = HBase::open(endpoint.clone()).unwrap_err();
        println!("no ticket, {endpoint}: {err}");
        assert_eq!(err.kind(), ErrorKind::Auth, "{err}");
        assert!(
            err.to_string().contains("no Kerberos ticket: run kinit"),
            "{err}"
        );
    }
}

/// A ticket of 5 s from kinit, expired: refused, saying so; then the same ticket cache with the
/// client keytab (`renewed`, in a process of its own): krb5 gets a new ticket by itself.
fn expired(server: &Server, dir: &Path) {
    let cache = std::env::var("KRB5CCNAME").unwrap();
    let kinit = Command::new("kinit")
        .args(["-l", "5s", "-k", "-t"])
        .arg(dir.join("client.keytab"))
        .arg("alice@ROWKEY.TEST")
        .output()
        .expect("kinit (Debian's krb5-user, which .ci/servers/install.sh installs)");
    assert!(
        kinit.status.success(),
        "kinit: {}",
        String::from_utf8_lossy(&kinit.stderr)
    );
    // Fresh, the ticket serves.
    HBase::open(sasl_endpoint(server, dir)).unwrap();
    std::thread::sleep(Duration::from_secs(7));
    let err = HBase::open(sasl_endpoint(server, dir)).unwrap_err();
    println!("an expired ticket: {err}");
    assert_eq!(err.kind(), ErrorKind::Auth, "{err}");
    assert!(err.to_string().contains("expired"), "{err}");
    let renewed = Command::new(std::env::current_exe().unwrap())
        .arg("renewed")
        .env("KRB5CCNAME", &cache)
        .env("KRB5_CLIENT_KTNAME", dir.join("client.keytab"))
        .output()
        .unwrap();
    print!("{}", String::from_utf8_lossy(&renewed.stdout));
    assert!(
        renewed.status.success(),
        "with the keytab: {}",
        String::from_utf8_lossy(&renewed.stderr)
    );
}

/// The expired ticket cache of `expired`, with the client keytab: both modes pass.
fn renewed(server: &Server, dir: &Path) {
    for endpoint in [sasl_endpoint(server, dir), spnego_endpoint(server, dir)] {
        let mut hbase = HBase::open(endpoint.clone()).unwrap();
        hbase.region_starts("hbase:meta").unwrap();
        println!("renewed from the keytab: {endpoint}");
    }
}
