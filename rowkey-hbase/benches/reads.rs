//! Reads that cost what they return: rowkey-hbase beside HBase's own Java client (`hbase-client`
//! 2.6.1, `Table.getScanner`, the same filters), on one table of 1,000,000 rows of the test HBase
//! (`.ci/servers/hbase.sh`, started here unless `ROWKEY_HBASE_THRIFT` names one). The Java reads
//! run in a JVM of their own (`rowkey.servers.ScanBench`, kept warm for the whole run) and take
//! turns with the Rust ones, round after round; the first round warms up, the medians of the
//! others are printed with their ratios:
//!
//! - an `IN` list of 1,000 point keys: one scanner a region with a `MultiRowRangeFilter` (the
//!   default), a scanner a range (`with_scanner_per_range`, how rowkey-hbase read before), and
//!   the Java client's one scanner with a `MultiRowRangeFilter`;
//! - a query on a field behind a hash prefix (`metric`, 1% of the rows): HBase's
//!   `FuzzyRowFilter` in the region servers, the whole table filtered on the client by
//!   `Scan::matches`, and the Java client with the same `FuzzyRowFilter`;
//! - the whole table: one range, the plan split at the region starts and read on a thread a
//!   region, and the Java client's one scanner;
//! - keys alone (`with_keys_only`): the whole table's keys, beside the whole read.
//!
//! `cargo bench -p rowkey-hbase --all-features --bench reads` (about 5 minutes, the 1,000,000
//! rows written once a cluster: a table left by an earlier run is read again).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use rowkey::{RowKey, Scan};
use rowkey_hbase::{row_key, HBase, ReadOptions, Rows};

#[path = "../tests/common/mod.rs"]
mod common;

use common::Server;

/// A metric's readings: the hash of the host leads the key (writes spread over the regions), so
/// a query on the metric alone cannot narrow its range, and the metric's bytes sit behind the
/// hash at a fixed offset.
#[derive(RowKey, Debug)]
struct Reading {
    metric: u16,
    #[rowkey(hash_prefix(len = 1))]
    host: u32,
    ts: u32,
}

const METRICS: u16 = 100;
const HOSTS: u32 = 1_000;
const TIMES: u32 = 10;
const ROWS: usize = METRICS as usize * HOSTS as usize * TIMES as usize;
const TABLE: &str = "bench_reads_1m";
const PAGE: usize = 1_000;
const ROUNDS: usize = 6;

/// HBase's Java client in a JVM of its own, one read a line.
struct Java {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

/// What the Java client read: rows, the time it took (its own clock, around its scan), and the
/// CPU time its JVM spent meanwhile.
struct JavaRead {
    rows: usize,
    took: Duration,
    cpu: Duration,
}

impl Java {
    fn start(zookeeper: &str) -> Java {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../.ci/servers/hbase.sh");
        let out = Command::new("bash")
            .args([script, "classpath"])
            .stderr(Stdio::inherit())
            .output()
            .expect("bash runs .ci/servers/hbase.sh");
        assert!(out.status.success(), "hbase.sh classpath failed");
        let classpath = String::from_utf8(out.stdout).unwrap().trim().to_string();
        let mut child = Command::new("java")
            .args([
                "-Xmx1g",
                "-XX:+UseG1GC",
                "--add-opens",
                "java.base/java.lang=ALL-UNNAMED",
                "--add-opens",
                "java.base/java.nio=ALL-UNNAMED",
                "--add-opens",
                "java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
                "-Dlog4j2.level=WARN",
                "-cp",
                &classpath,
                "rowkey.servers.ScanBench",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("java runs HBase's client");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut java = Java {
            child,
            input,
            output,
        };
        let answer = java.call(&format!("connect {zookeeper} {TABLE}"));
        assert_eq!(answer, "ok", "the Java client did not connect");
        java
    }

    fn call(&mut self, line: &str) -> String {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        let mut answer = String::new();
        // Log lines of HBase's client may come first: the answer starts with ok or error.
        loop {
            answer.clear();
            assert!(
                self.output.read_line(&mut answer).unwrap() > 0,
                "the JVM exited"
            );
            if answer.starts_with("ok") || answer.starts_with("error") {
                return answer.trim().to_string();
            }
        }
    }

    /// A scan: keys alone or not, the ranges of `ranges` (a `MultiRowRangeFilter`), the
    /// `FuzzyRowFilter` keys of `fuzzy` (`KEY:MASK`, hex).
    fn scan(&mut self, keys_only: bool, ranges: Option<&str>, fuzzy: Option<&str>) -> JavaRead {
        let answer = self.call(&format!(
            "scan {PAGE} {} {} {}",
            u8::from(keys_only),
            ranges.unwrap_or("-"),
            fuzzy.unwrap_or("-")
        ));
        let words: Vec<&str> = answer.split(' ').collect();
        assert_eq!(words[0], "ok", "the Java client: {answer}");
        JavaRead {
            rows: words[1].parse().unwrap(),
            took: Duration::from_nanos(words[4].parse().unwrap()),
            cpu: Duration::from_nanos(words[5].parse().unwrap()),
        }
    }
}

impl Drop for Java {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The rows of a read counted, and the rows the servers sent.
fn count(rows: Rows) -> (usize, u64) {
    let mut rows = rows;
    let mut n = 0;
    for row in rows.by_ref() {
        row.unwrap();
        n += 1;
    }
    (n, rows.received())
}

/// CPU time from Linux's `/proc`: this process's (`/proc/self/stat`), and the whole machine's
/// busy time (`/proc/stat`), in clock ticks of 10 ms; zero elsewhere.
fn cpu_ticks() -> (u64, u64) {
    let own = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<u64> = own
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let own = fields.get(11).zip(fields.get(12)).map_or(0, |(u, s)| u + s);
    let all = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let ticks: Vec<u64> = all
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    let busy = ticks
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3 && *i != 4 && *i < 8)
        .map(|(_, t)| t)
        .sum();
    (own, busy)
}

/// The CPU time of `f`: this process's and the machine's, as durations.
fn cpu_of<T>(f: impl FnOnce() -> T) -> (Duration, Duration, Duration, T) {
    let (own, busy) = cpu_ticks();
    let (took, value) = timed(f);
    let (own_after, busy_after) = cpu_ticks();
    let tick = |t: u64| Duration::from_millis(t * 10);
    (took, tick(own_after - own), tick(busy_after - busy), value)
}

fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let started = Instant::now();
    let value = f();
    (started.elapsed(), value)
}

/// The table of 1,000,000 readings, written unless a table of that many rows is there.
fn load(hbase: &mut HBase) {
    let options = ReadOptions::default().with_page(PAGE).with_keys_only();
    if let Ok(rows) = hbase.read_rows_with(TABLE, Reading::scan(), &options) {
        if rows.map(|r| r.map(|_| 1)).sum::<Result<usize, _>>().ok() == Some(ROWS) {
            println!("{TABLE}: {ROWS} rows there from an earlier run");
            return;
        }
    }
    let _ = hbase.drop_table(TABLE);
    hbase
        .create_table(TABLE, "d", &Reading::split_keys(8))
        .unwrap();
    let started = Instant::now();
    let mut batch = Vec::with_capacity(10_000);
    for metric in 0..METRICS {
        for host in 0..HOSTS {
            for ts in 0..TIMES {
                let key = row_key(&Reading { metric, host, ts }).unwrap();
                batch.push((key, [7u8; 16].to_vec()));
            }
            if batch.len() >= 10_000 {
                hbase.put_rows(TABLE, "d", &batch).unwrap();
                batch.clear();
            }
        }
        if metric % 10 == 9 {
            eprintln!(
                "  {} rows written",
                (metric as usize + 1) * ROWS / METRICS as usize
            );
        }
    }
    hbase.put_rows(TABLE, "d", &batch).unwrap();
    println!(
        "{TABLE}: {ROWS} rows written in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter or `--list` from a harness is not for this one.
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let server = Server::get();
    let mut hbase = HBase::connect(&server.thrift).unwrap();
    load(&mut hbase);
    let zookeeper = server.control("GET", "/zookeeper").trim().to_string();
    let mut java = Java::start(&zookeeper);
    let dir = std::env::temp_dir().join(format!("rowkey-bench-reads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // The IN list: metric 17, every host, time 3: 1,000 point keys over the 8 regions.
    let in_list: Scan<Reading> = Reading::scan().metric(17).host_in(0..HOSTS).ts(3).into();
    assert_eq!(in_list.ranges().count(), HOSTS as usize);
    let ranges_file = dir.join("in-list.ranges");
    let lines: Vec<String> = in_list
        .ranges()
        .map(|r| format!("{} {}", hex(r.start()), hex(r.stop())))
        .collect();
    std::fs::write(&ranges_file, lines.join("\n")).unwrap();
    let ranges_file = ranges_file.to_str().unwrap().to_string();

    // The metric alone: 1% of the rows, anywhere in the table.
    let metric: Scan<Reading> = Reading::scan().metric(42).into();
    let pattern = metric.pattern().expect("the metric behind the hash");
    assert!(pattern.is_exact());
    let fuzzy: Vec<String> = pattern
        .alternatives()
        .map(|bytes| {
            let key = [vec![0; pattern.offset()], bytes.to_vec()].concat();
            let mask = [vec![1; pattern.offset()], vec![0; bytes.len()]].concat();
            format!("{}:{}", hex(&key), hex(&mask))
        })
        .collect();
    let fuzzy = fuzzy.join(",");
    let whole: Scan<Reading> = Reading::scan().into();
    let parts = whole.split(hbase.region_starts(TABLE).unwrap());
    let part_readers: Vec<HBase> = parts
        .iter()
        .map(|_| HBase::connect(&server.thrift).unwrap())
        .collect();

    let options = ReadOptions::default().with_page(PAGE);
    let per_range = options.clone().with_scanner_per_range();
    let keys_only = options.clone().with_keys_only();
    let mut times: BTreeMap<&'static str, Vec<Duration>> = BTreeMap::new();
    let mut received = BTreeMap::new();
    // CPU time of the whole-table reads: the reader's own, and the machine's (every process).
    let mut cpu: BTreeMap<&'static str, Vec<(Duration, Duration)>> = BTreeMap::new();
    let mut record = |what: &'static str, took: Duration, rows: usize, expected: usize| {
        assert_eq!(rows, expected, "{what}: rows");
        times.entry(what).or_default().push(took);
    };
    for round in 0..ROUNDS {
        eprintln!("round {} of {ROUNDS}", round + 1);
        let (t, (n, _)) = timed(|| count(hbase.read_rows_with(TABLE, &in_list, &options).unwrap()));
        record(
            "in: rowkey, a scanner a region (MultiRowRangeFilter)",
            t,
            n,
            1_000,
        );
        let (t, (n, _)) =
            timed(|| count(hbase.read_rows_with(TABLE, &in_list, &per_range).unwrap()));
        record("in: rowkey, a scanner a range", t, n, 1_000);
        let r = java.scan(false, Some(&ranges_file), None);
        record(
            "in: Java client, MultiRowRangeFilter",
            r.took,
            r.rows,
            1_000,
        );

        let (t, (n, sent)) =
            timed(|| count(hbase.read_rows_with(TABLE, &metric, &options).unwrap()));
        record("metric: rowkey, FuzzyRowFilter", t, n, ROWS / 100);
        received.insert("metric: rows the region servers sent", sent);
        let (t, n) = timed(|| {
            let rows = hbase.read_rows_with(TABLE, &whole, &options).unwrap();
            rows.filter(|r| metric.matches(&r.as_ref().unwrap().key))
                .count()
        });
        record(
            "metric: rowkey, the table filtered on the client",
            t,
            n,
            ROWS / 100,
        );
        let r = java.scan(false, None, Some(&fuzzy));
        record(
            "metric: Java client, FuzzyRowFilter",
            r.took,
            r.rows,
            ROWS / 100,
        );

        let (t, own, busy, (n, _)) =
            cpu_of(|| count(hbase.read_rows_with(TABLE, &whole, &options).unwrap()));
        record("whole: rowkey, one range", t, n, ROWS);
        cpu.entry("whole: rowkey, one range")
            .or_default()
            .push((own, busy));
        let (t, n) = timed(|| {
            std::thread::scope(|s| {
                let threads: Vec<_> = parts
                    .iter()
                    .zip(&part_readers)
                    .map(|(part, reader)| {
                        let options = &options;
                        s.spawn(move || {
                            count(reader.read_rows_with(TABLE, part, options).unwrap()).0
                        })
                    })
                    .collect();
                threads
                    .into_iter()
                    .map(|t| t.join().unwrap())
                    .sum::<usize>()
            })
        });
        record("whole: rowkey, split by region, a thread each", t, n, ROWS);
        let (_, _, busy, r) = cpu_of(|| java.scan(false, None, None));
        record("whole: Java client, one scanner", r.took, r.rows, ROWS);
        cpu.entry("whole: Java client, one scanner")
            .or_default()
            .push((r.cpu, busy));

        let (t, (n, _)) = timed(|| count(hbase.read_rows_with(TABLE, &whole, &keys_only).unwrap()));
        record("keys: rowkey, keys alone", t, n, ROWS);
        let r = java.scan(true, None, None);
        record("keys: Java client, keys alone", r.took, r.rows, ROWS);
    }
    let median = |what: &str| {
        let mut t = times[what][1..].to_vec();
        t.sort();
        t[t.len() / 2]
    };
    println!(
        "\nreads of {TABLE} ({ROWS} rows, 8 regions, 3 region servers), medians of {} rounds \
         taking turns:",
        ROUNDS - 1
    );
    for what in times.keys() {
        println!("  {what:<58} {:>10.1?}", median(what));
    }
    let ratio = |a: &str, b: &str| median(a).as_secs_f64() / median(b).as_secs_f64();
    println!(
        "\n  IN list: a scanner a range / a scanner a region = {:.1}x faster; rowkey / Java = {:.2}x",
        ratio("in: rowkey, a scanner a range", "in: rowkey, a scanner a region (MultiRowRangeFilter)"),
        ratio("in: rowkey, a scanner a region (MultiRowRangeFilter)", "in: Java client, MultiRowRangeFilter"),
    );
    println!(
        "  metric: client filter / FuzzyRowFilter = {:.1}x faster; rowkey / Java = {:.2}x; rows \
         sent by the region servers {} for {} matching ({:.3}x)",
        ratio(
            "metric: rowkey, the table filtered on the client",
            "metric: rowkey, FuzzyRowFilter"
        ),
        ratio(
            "metric: rowkey, FuzzyRowFilter",
            "metric: Java client, FuzzyRowFilter"
        ),
        received["metric: rows the region servers sent"],
        ROWS / 100,
        received["metric: rows the region servers sent"] as f64 / (ROWS / 100) as f64,
    );
    println!(
        "  whole table: one range / Java = {:.2}x; split by region / Java = {:.2}x",
        ratio(
            "whole: rowkey, one range",
            "whole: Java client, one scanner"
        ),
        ratio(
            "whole: rowkey, split by region, a thread each",
            "whole: Java client, one scanner"
        ),
    );
    println!(
        "  keys alone / whole read = {:.2}x; rowkey keys / Java keys = {:.2}x",
        ratio("keys: rowkey, keys alone", "whole: rowkey, one range"),
        ratio("keys: rowkey, keys alone", "keys: Java client, keys alone"),
    );
    println!("\n  where the time of the whole table goes (CPU, medians; 2 cores):");
    for (what, spent) in &cpu {
        let mut own: Vec<Duration> = spent[1..].iter().map(|c| c.0).collect();
        let mut all: Vec<Duration> = spent[1..].iter().map(|c| c.1).collect();
        own.sort();
        all.sort();
        let (own, all) = (own[own.len() / 2], all[all.len() / 2]);
        println!(
            "  {what:<40} the reader {own:>8.2?}, the machine {all:>8.2?} (the servers, \
             Thrift2 included: {:.2?}), wall {:.2?}",
            all.saturating_sub(own),
            median(what)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
