//! rowkey-hbase against the same work written by hand on HBase's Thrift2 client, on the real
//! HBase of `.ci/servers/hbase.sh` (started here, or the one `ROWKEY_HBASE_THRIFT` names), side
//! by side in one run:
//!
//! - reading 100,000 rows of one range: `HBase::read_rows_with` against a hand-written
//!   `openScanner`/`getScannerRows` loop on one connection, the same page size (1,000), in the
//!   server's default mode (buffered transport, binary protocol), in framed compact (the
//!   second Thrift2 server of the test HBase) and over HTTPS (the fourth; with `--all-features`,
//!   for the crate's `tls`), the hand-written HTTPS side a `THttpClient` of its own on rustls;
//!   and, with `--all-features`, the same read over Kerberos (SASL at `auth-conf`, and SPNEGO over
//!   HTTPS), the cost of Kerberos against the plain reads beside them;
//! - writing 100,000 rows: `HBase::put_rows` (one cell a row) and `HBase::put` (4 cells a row)
//!   against hand-built `putMultiple` batches of the same size (1,000), the two taking turns for
//!   10 rounds (writes change the server's state), their medians printed;
//! - the cost of salting on reads: 100,000 rows of a 16-bucket salted table (16 scanners,
//!   merged) against the same rows of an unsalted table (one scanner).
//!
//! `cargo bench -p rowkey-hbase --all-features --bench hbase`

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use rowkey::{RowKey, Scan};
use rowkey_hbase::{row_key, Cell, Endpoint, HBase, Protocol, ReadOptions, Row, Transport};
use thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TCompactInputProtocol, TCompactOutputProtocol,
};
use thrift::transport::{
    TBufferedReadTransport, TBufferedWriteTransport, TFramedReadTransport, TFramedWriteTransport,
    TIoChannel, TTcpChannel,
};

// The generated client the crate compiles (hidden, not part of its API), for the hand-written
// side.
use rowkey_hbase::__thrift2 as hbase;

use hbase::{TColumnValue, THBaseServiceSyncClient, TPut, TScan, TTHBaseServiceSyncClient};

const ROWS: u32 = 100_000;
const PAGE: usize = 1_000;
const T0: u64 = 1_700_000_000_000;

/// An event key without a salt.
#[derive(RowKey)]
struct Plain {
    ts_millis: u64,
    event_id: u32,
}

/// The same fields behind 16 salt buckets.
#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
struct Salted {
    ts_millis: u64,
    event_id: u32,
}

/// The HBase the tests use (`tests/common`): the environment's, or this checkout's, started
/// once and stopped by the servers' guard after the run.
#[path = "../tests/common/mod.rs"]
mod common;

use common::Server;

type Client = THBaseServiceSyncClient<
    TBinaryInputProtocol<TBufferedReadTransport<thrift::transport::ReadHalf<TTcpChannel>>>,
    TBinaryOutputProtocol<TBufferedWriteTransport<thrift::transport::WriteHalf<TTcpChannel>>>,
>;

/// A hand-made connection, as a user of the generated client would make it.
fn hand_client(addr: &str) -> Client {
    let stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_nodelay(true).unwrap();
    let (input, output) = TTcpChannel::with_stream(stream).split().unwrap();
    THBaseServiceSyncClient::new(
        TBinaryInputProtocol::new(TBufferedReadTransport::new(input), true),
        TBinaryOutputProtocol::new(TBufferedWriteTransport::new(output), true),
    )
}

type FramedCompactClient = THBaseServiceSyncClient<
    TCompactInputProtocol<TFramedReadTransport<thrift::transport::ReadHalf<TTcpChannel>>>,
    TCompactOutputProtocol<TFramedWriteTransport<thrift::transport::WriteHalf<TTcpChannel>>>,
>;

/// The same, framed transport and compact protocol, with the Thrift runtime's own transports.
fn hand_framed_compact_client(addr: &str) -> FramedCompactClient {
    let stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_nodelay(true).unwrap();
    let (input, output) = TTcpChannel::with_stream(stream).split().unwrap();
    THBaseServiceSyncClient::new(
        TCompactInputProtocol::new(TFramedReadTransport::new(input)),
        TCompactOutputProtocol::new(TFramedWriteTransport::new(output)),
    )
}

/// Thrift over HTTPS as a user of the generated client would write it (the Rust runtime has no
/// HTTP transport): Thrift's `THttpClient` on rustls, each message POSTed on one kept-alive
/// connection, the answer's body read by its length or its chunks.
#[cfg(feature = "tls")]
mod hand_https {
    use std::io::{self, BufRead, BufReader, Read, Write};
    use std::net::TcpStream;
    use std::sync::{Arc, Mutex};

    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, ServerName};
    use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

    type Tls = BufReader<StreamOwned<ClientConnection, TcpStream>>;

    /// One connection shared by the two halves: the request written, the answer read.
    pub struct Channel {
        host: String,
        tls: Tls,
        request: Vec<u8>,
        answer: io::Cursor<Vec<u8>>,
    }

    pub fn connect(addr: &str, ca: &str) -> Arc<Mutex<Channel>> {
        let mut roots = RootCertStore::empty();
        for cert in CertificateDer::pem_file_iter(ca).unwrap() {
            roots.add(cert.unwrap()).unwrap();
        }
        let config =
            ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .unwrap()
                .with_root_certificates(roots)
                .with_no_client_auth();
        let name = ServerName::try_from("localhost").unwrap();
        let tcp = TcpStream::connect(addr).unwrap();
        tcp.set_nodelay(true).unwrap();
        let conn = ClientConnection::new(Arc::new(config), name).unwrap();
        Arc::new(Mutex::new(Channel {
            host: addr.to_string(),
            tls: BufReader::new(StreamOwned::new(conn, tcp)),
            request: Vec::new(),
            answer: io::Cursor::new(Vec::new()),
        }))
    }

    impl Channel {
        fn post(&mut self) -> io::Result<()> {
            let head = format!(
                "POST / HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-thrift\r\nAccept: application/x-thrift\r\nContent-Length: {}\r\n\r\n",
                self.host,
                self.request.len()
            );
            let mut message = head.into_bytes();
            message.append(&mut self.request);
            self.tls.get_mut().write_all(&message)?;
            self.tls.get_mut().flush()?;
            let mut line = String::new();
            self.tls.read_line(&mut line)?;
            assert!(line.starts_with("HTTP/1.1 200"), "{line}");
            let (mut length, mut chunked) = (0, false);
            loop {
                line.clear();
                self.tls.read_line(&mut line)?;
                let lower = line.trim().to_ascii_lowercase();
                if lower.is_empty() {
                    break;
                }
                if let Some(n) = lower.strip_prefix("content-length:") {
                    length = n.trim().parse().unwrap();
                }
                chunked |= lower.starts_with("transfer-encoding:") && lower.contains("chunked");
            }
            let mut body = Vec::new();
            if chunked {
                loop {
                    line.clear();
                    self.tls.read_line(&mut line)?;
                    let n = usize::from_str_radix(line.trim(), 16).unwrap();
                    let at = body.len();
                    body.resize(at + n, 0);
                    self.tls.read_exact(&mut body[at..])?;
                    line.clear();
                    self.tls.read_line(&mut line)?;
                    if n == 0 {
                        break;
                    }
                }
            } else {
                body.resize(length, 0);
                self.tls.read_exact(&mut body)?;
            }
            self.answer = io::Cursor::new(body);
            Ok(())
        }
    }

    pub struct ReadHalf(pub Arc<Mutex<Channel>>);
    pub struct WriteHalf(pub Arc<Mutex<Channel>>);

    impl Read for ReadHalf {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            self.0.lock().unwrap().answer.read(out)
        }
    }

    impl Write for WriteHalf {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().request.extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            self.0.lock().unwrap().post()
        }
    }
}

/// A hand-written read of `[start, stop)` in pages, its row count.
fn hand_read<C: TTHBaseServiceSyncClient>(
    client: &mut C,
    table: &str,
    start: &[u8],
    stop: &[u8],
) -> usize {
    let id = client
        .open_scanner(
            table.as_bytes().to_vec(),
            hand_scan(start.to_vec(), stop.to_vec()),
        )
        .unwrap();
    let mut n = 0;
    loop {
        let page = client.get_scanner_rows(id, PAGE as i32).unwrap();
        if page.is_empty() {
            break;
        }
        n += page.len();
    }
    client.close_scanner(id).unwrap();
    n
}

fn hand_scan(start: Vec<u8>, stop: Vec<u8>) -> TScan {
    TScan {
        start_row: Some(start),
        stop_row: Some(stop),
        columns: None,
        caching: Some(PAGE as i32),
        max_versions: None,
        time_range: None,
        filter_string: None,
        batch_size: None,
        attributes: None,
        authorizations: None,
        reversed: None,
        cache_blocks: None,
        col_fam_time_range_map: None,
        read_type: None,
        limit: None,
        consistency: None,
        target_replica_id: None,
        filter_bytes: None,
    }
}

fn hand_puts(rows: &[(Vec<u8>, Vec<u8>)]) -> Vec<TPut> {
    rows.iter()
        .map(|(key, value)| TPut {
            row: key.clone(),
            column_values: vec![TColumnValue {
                family: b"d".to_vec(),
                qualifier: b"v".to_vec(),
                value: value.clone(),
                timestamp: None,
                tags: None,
                type_: None,
            }],
            timestamp: None,
            attributes: None,
            durability: None,
            cell_visibility: None,
        })
        .collect()
}

/// 100,000 rows of `key`'s layout, one a millisecond, 16 bytes of value each.
fn rows(key: impl Fn(u64, u32) -> Vec<u8>) -> Vec<(Vec<u8>, Vec<u8>)> {
    (0..ROWS)
        .map(|i| (key(T0 + u64::from(i), i), [7u8; 16].to_vec()))
        .collect()
}

fn benches(c: &mut Criterion) {
    let server = Server::get();
    let mut admin = HBase::connect(&server.thrift).unwrap();
    let id = std::process::id();
    let (plain, salted, writes) = (
        format!("bench_plain_{id}"),
        format!("bench_salted_{id}"),
        format!("bench_writes_{id}"),
    );
    admin.create_table::<Vec<u8>>(&plain, "d", &[]).unwrap();
    admin
        .create_table(&salted, "d", &Salted::split_keys(16))
        .unwrap();
    admin.create_table::<Vec<u8>>(&writes, "d", &[]).unwrap();
    let plain_rows = rows(|ts_millis, event_id| {
        row_key(&Plain {
            ts_millis,
            event_id,
        })
        .unwrap()
    });
    let salted_rows = rows(|ts_millis, event_id| {
        row_key(&Salted {
            ts_millis,
            event_id,
        })
        .unwrap()
    });
    for batch in plain_rows.chunks(PAGE) {
        admin.put_rows(&plain, "d", batch).unwrap();
    }
    for batch in salted_rows.chunks(PAGE) {
        admin.put_rows(&salted, "d", batch).unwrap();
    }

    let until = T0 + u64::from(ROWS);
    let plain_plan: Scan<Plain> = Plain::scan().ts_millis_range(T0..until).into();
    let salted_plan: Scan<Salted> = Salted::scan().ts_millis_range(T0..until).into();
    let options = ReadOptions::default().with_page(PAGE);
    let count = |rows: rowkey_hbase::Rows| {
        rows.map(|r| r.map(|_| 1))
            .sum::<Result<usize, _>>()
            .unwrap()
    };
    assert_eq!(
        count(admin.read_rows_with(&plain, &plain_plan, &options).unwrap()),
        ROWS as usize
    );
    assert_eq!(
        count(
            admin
                .read_rows_with(&salted, &salted_plan, &options)
                .unwrap()
        ),
        ROWS as usize
    );

    let mut hand = hand_client(&server.thrift);
    let range = plain_plan.ranges().next().unwrap();
    let mut group = c.benchmark_group("hbase read 100,000 rows");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("hand-written Thrift2 scan loop", |b| {
        b.iter(|| {
            let n = hand_read(&mut hand, &plain, range.start(), range.stop());
            assert_eq!(n, ROWS as usize);
        });
    });
    group.bench_function("rowkey-hbase read_rows_with", |b| {
        b.iter(|| {
            let n = count(admin.read_rows_with(&plain, &plain_plan, &options).unwrap());
            assert_eq!(n, ROWS as usize);
        });
    });
    let mut hand_fc = hand_framed_compact_client(&server.framed_compact);
    let framed_compact = HBase::open(
        Endpoint::tcp(&server.framed_compact)
            .with_transport(Transport::Framed)
            .with_protocol(Protocol::Compact),
    )
    .unwrap();
    group.bench_function("hand-written Thrift2 scan loop, framed compact", |b| {
        b.iter(|| {
            let n = hand_read(&mut hand_fc, &plain, range.start(), range.stop());
            assert_eq!(n, ROWS as usize);
        });
    });
    group.bench_function("rowkey-hbase read_rows_with, framed compact", |b| {
        b.iter(|| {
            let n = count(
                framed_compact
                    .read_rows_with(&plain, &plain_plan, &options)
                    .unwrap(),
            );
            assert_eq!(n, ROWS as usize);
        });
    });
    #[cfg(feature = "tls")]
    {
        let channel = hand_https::connect(&server.https, &server.ca);
        let mut hand_https = THBaseServiceSyncClient::new(
            TBinaryInputProtocol::new(
                TBufferedReadTransport::new(hand_https::ReadHalf(channel.clone())),
                true,
            ),
            TBinaryOutputProtocol::new(hand_https::WriteHalf(channel), true),
        );
        let https = HBase::open(Endpoint::https(&server.https).with_ca_file(&server.ca)).unwrap();
        group.bench_function("hand-written Thrift2 scan loop, HTTPS", |b| {
            b.iter(|| {
                let n = hand_read(&mut hand_https, &plain, range.start(), range.stop());
                assert_eq!(n, ROWS as usize);
            });
        });
        group.bench_function("rowkey-hbase read_rows_with, HTTPS", |b| {
            b.iter(|| {
                let n = count(https.read_rows_with(&plain, &plain_plan, &options).unwrap());
                assert_eq!(n, ROWS as usize);
            });
        });
    }
    // Kerberos: MIT krb5 reads its settings from the environment, set here before any thread
    // of the benchmark asks for a ticket (from the test KDC's client keytab).
    #[cfg(all(feature = "kerberos", feature = "tls"))]
    {
        let dir = std::path::Path::new(&server.kerberos);
        std::env::set_var("KRB5_CONFIG", dir.join("krb5.conf"));
        std::env::set_var("KRB5_CLIENT_KTNAME", dir.join("client.keytab"));
        std::env::set_var("KRB5CCNAME", "MEMORY:rowkey-bench");
        let host = std::fs::read_to_string(dir.join("host")).unwrap();
        let host = host.trim();
        let sasl = HBase::open(
            Endpoint::tcp(&server.sasl)
                .with_kerberos(format!("thrift/{host}@ROWKEY.TEST"))
                .with_qop(rowkey_hbase::Qop::AuthConf),
        )
        .unwrap();
        group.bench_function(
            "rowkey-hbase read_rows_with, Kerberos SASL auth-conf",
            |b| {
                b.iter(|| {
                    let n = count(sasl.read_rows_with(&plain, &plain_plan, &options).unwrap());
                    assert_eq!(n, ROWS as usize);
                });
            },
        );
        let spnego = HBase::open(
            Endpoint::https(&server.spnego)
                .with_ca_file(&server.ca)
                .with_kerberos(format!("HTTP/{host}@ROWKEY.TEST")),
        )
        .unwrap();
        group.bench_function(
            "rowkey-hbase read_rows_with, Kerberos SPNEGO over HTTPS",
            |b| {
                b.iter(|| {
                    let n = count(
                        spnego
                            .read_rows_with(&plain, &plain_plan, &options)
                            .unwrap(),
                    );
                    assert_eq!(n, ROWS as usize);
                });
            },
        );
    }
    group.bench_function("rowkey-hbase read_rows_with, 16 salt buckets", |b| {
        b.iter(|| {
            let n = count(
                admin
                    .read_rows_with(&salted, &salted_plan, &options)
                    .unwrap(),
            );
            assert_eq!(n, ROWS as usize);
        });
    });
    group.finish();

    // Writes change the server's state (memstores fill and flush), so the two sides take turns,
    // round after round, rather than one criterion run after the other: the medians of 10 rounds
    // each. The server closes a connection idle for 60 s: a fresh one for the hand-written side.
    let mut hand = hand_client(&server.thrift);
    taking_turns(
        "hbase write 100,000 rows of one cell: hand-written putMultiple batches / rowkey-hbase put_rows",
        || {
            for batch in plain_rows.chunks(PAGE) {
                hand.put_multiple(writes.as_bytes().to_vec(), hand_puts(batch))
                    .unwrap();
            }
        },
        || {
            for batch in plain_rows.chunks(PAGE) {
                admin.put_rows(&writes, "d", batch).unwrap();
            }
        },
    );
    // Rows of 4 cells of 16 bytes each: `put` of `Row`s against the same puts built by hand.
    let wide: Vec<Row> = plain_rows
        .iter()
        .map(|(key, value)| {
            Row::new(
                key.clone(),
                ["a", "b", "c", "d"]
                    .iter()
                    .map(|q| Cell::new("d", *q, value.clone()))
                    .collect(),
            )
        })
        .collect();
    let mut hand = hand_client(&server.thrift);
    taking_turns(
        "hbase write 100,000 rows of 4 cells: hand-written putMultiple batches / rowkey-hbase put",
        || {
            for batch in wide.chunks(PAGE) {
                let puts = batch
                    .iter()
                    .map(|row| TPut {
                        row: row.key.clone(),
                        column_values: row
                            .cells
                            .iter()
                            .map(|c| TColumnValue {
                                family: c.family.clone(),
                                qualifier: c.qualifier.clone(),
                                value: c.value.clone(),
                                timestamp: None,
                                tags: None,
                                type_: None,
                            })
                            .collect(),
                        timestamp: None,
                        attributes: None,
                        durability: None,
                        cell_visibility: None,
                    })
                    .collect();
                hand.put_multiple(writes.as_bytes().to_vec(), puts).unwrap();
            }
        },
        || {
            for batch in wide.chunks(PAGE) {
                admin.put(&writes, batch).unwrap();
            }
        },
    );
}

/// `by_hand` and `by_rowkey` in turns for 11 rounds (the first warms up): their medians and
/// ratio, printed after `what`.
fn taking_turns(what: &str, mut by_hand: impl FnMut(), mut by_rowkey: impl FnMut()) {
    let (mut hand_times, mut rowkey_times) = (Vec::new(), Vec::new());
    for round in 0..11 {
        let started = std::time::Instant::now();
        by_hand();
        let hand_time = started.elapsed();
        let started = std::time::Instant::now();
        by_rowkey();
        let rowkey_time = started.elapsed();
        if round > 0 {
            hand_times.push(hand_time);
            rowkey_times.push(rowkey_time);
        }
    }
    hand_times.sort();
    rowkey_times.sort();
    let (hand_median, rowkey_median) = (hand_times[5], rowkey_times[5]);
    println!(
        "{what}, 10 rounds taking turns, medians: {hand_median:.2?} / {rowkey_median:.2?}: {:.2}x",
        rowkey_median.as_secs_f64() / hand_median.as_secs_f64()
    );
}

criterion_group!(hbase_benches, benches);
criterion_main!(hbase_benches);
