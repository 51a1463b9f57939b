//! What the HBase tests share: the server, its control endpoint, the fault proxy, and a small
//! deterministic generator.
#![allow(dead_code)] // each test binary uses its own part

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;

/// The fault-injecting TCP proxy of the root crate's store tests.
#[path = "../../../tests/common/proxy.rs"]
pub mod proxy;

/// The script that builds, starts and stops the test HBase.
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../.ci/servers/hbase.sh");

/// A running HBase: the one the environment names (`ROWKEY_HBASE_THRIFT`,
/// `ROWKEY_HBASE_THRIFT_FRAMED_COMPACT`, `_HTTP`, `_HTTPS`, `_SASL`, `_SPNEGO`,
/// `ROWKEY_HBASE_CA`, `ROWKEY_HBASE_KERBEROS` and `ROWKEY_HBASE_CONTROL`), or this checkout's, started by the first test binary of the run that
/// needs it and shared by the others (`.ci/servers/hbase.sh start`, with this process as an owner:
/// the servers' guard stops it once every owner has exited).
pub struct Server {
    /// The Thrift2 server, `host:port`: buffered transport, binary protocol.
    pub thrift: String,
    /// The second Thrift2 server, `host:port`: framed transport, compact protocol, a frame
    /// limit of 2 MB.
    pub framed_compact: String,
    /// The Thrift2 server over HTTP, `host:port`, the proxy user (`doAs`) allowed.
    pub http: String,
    /// The Thrift2 server over HTTPS, `host:port`, the proxy user not allowed.
    pub https: String,
    /// The PEM file of the CA that signed the HTTPS servers' certificate.
    pub ca: String,
    /// The Thrift2 server with Kerberos over TCP (SASL GSSAPI, `auth-conf`), `host:port`.
    pub sasl: String,
    /// The Thrift2 server with Kerberos over HTTPS (SPNEGO), `host:port`.
    pub spnego: String,
    /// The test KDC's directory: `krb5.conf`, `client.keytab` (alice), `host` (the name in the
    /// servers' principals).
    pub kerberos: String,
    /// The control endpoint, `host:port`.
    pub control: String,
}

/// The variables a running HBase is named by, in the order of [`Server`]'s fields.
const VARIABLES: [&str; 9] = [
    "ROWKEY_HBASE_THRIFT",
    "ROWKEY_HBASE_THRIFT_FRAMED_COMPACT",
    "ROWKEY_HBASE_THRIFT_HTTP",
    "ROWKEY_HBASE_THRIFT_HTTPS",
    "ROWKEY_HBASE_CA",
    "ROWKEY_HBASE_THRIFT_SASL",
    "ROWKEY_HBASE_THRIFT_SPNEGO",
    "ROWKEY_HBASE_KERBEROS",
    "ROWKEY_HBASE_CONTROL",
];

impl Server {
    pub fn get() -> Server {
        let from_env: Vec<String> = VARIABLES
            .iter()
            .filter_map(|name| std::env::var(name).ok())
            .collect();
        if from_env.len() == VARIABLES.len() {
            return Server::from_values(from_env);
        }
        let out = Command::new("bash")
            .args([SCRIPT, "start"])
            .env("ROWKEY_SERVERS_OWNER", std::process::id().to_string())
            .output()
            .expect("bash runs .ci/servers/hbase.sh");
        assert!(
            out.status.success(),
            "HBase did not start (.ci/servers/hbase.sh start):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let exports = String::from_utf8(out.stdout).unwrap();
        let export = |name: &&str| {
            exports
                .lines()
                .find_map(|l| l.strip_prefix(&format!("export {name}=")))
                .unwrap_or_else(|| panic!("no {name} in {exports:?}"))
                .to_string()
        };
        Server::from_values(VARIABLES.iter().map(export).collect())
    }

    fn from_values(values: Vec<String>) -> Server {
        let [thrift, framed_compact, http, https, ca, sasl, spnego, kerberos, control]: [String;
            9] = values.try_into().expect("one value a variable");
        Server {
            thrift,
            framed_compact,
            http,
            https,
            ca,
            sasl,
            spnego,
            kerberos,
            control,
        }
    }

    /// A call of the control endpoint (`GET` or `POST`, a path with its query), its answer.
    pub fn control(&self, method: &str, path: &str) -> String {
        self.call(method, path, "")
    }

    /// A live region server that holds regions of `table`: its index (for
    /// `/kill-region-server?index=`) and its name.
    pub fn region_server_holding(&self, table: &str) -> (String, String) {
        let placement = self.control("GET", &format!("/regions?table={table}"));
        let live = self.control("GET", "/region-servers");
        live.lines()
            .filter_map(|l| l.split_once('\t'))
            .find(|(_, name)| placement.contains(name))
            .map(|(index, name)| (index.to_string(), name.to_string()))
            .expect("a region server with regions of the table")
    }

    /// SQL through Apache Phoenix on the cluster (`POST /phoenix`: lines of `exec`, `prepare`
    /// and `row`, as `.ci/servers/hbase/src/main/java/rowkey/servers/PhoenixSql.java` says), its
    /// answer.
    pub fn phoenix(&self, body: &str) -> String {
        self.call("POST", "/phoenix", body)
    }

    fn call(&self, method: &str, path: &str, body: &str) -> String {
        let (status, answer) = self.call_status(method, path, body);
        assert_eq!(status, 200, "{method} {path}: {answer}");
        answer
    }

    /// A call of the control endpoint, its status and answer, whatever the status.
    pub fn call_status(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.control).expect("the control endpoint");
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.control,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{method} {path}: no status in {head:?}"));
        (status, body.to_string())
    }
}

/// A small deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }
}

/// The proxy, in a tokio runtime on a thread of its own for as long as the test runs.
pub fn proxy_on_thread(upstream: &str, faults: proxy::Faults) -> proxy::Proxy {
    let upstream = upstream.parse().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            tx.send(proxy::Proxy::start(upstream, faults).await)
                .unwrap();
            std::future::pending::<()>().await
        });
    });
    rx.recv().unwrap()
}
