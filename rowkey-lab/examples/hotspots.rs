//! The key lab on the seeds' own keys (`rowkey-lab`): the same stream of writes under six
//! row-key layouts, each into a table that splits by itself (HBase's size-based policy) and into
//! one pre-split into 16 regions, with the busiest region's share of each minute's writes, the
//! regions at the end, the advice from the layout alone, and a heatmap per table.
//!
//! - a time-first event key `[ts_millis][event_id]`, and the same behind a 16-bucket salt;
//! - the HBase book's metric key `[md5(host)][md5(type)][ts]`;
//! - the Korean message key `230611:063031:1231231` (day, time, id as text), and the same behind
//!   the uppercase MD5 prefix of the whole key.
//!
//! Run with `cargo run --release -p rowkey-lab --example hotspots [-- OUT_DIR]`; the
//! heatmaps go to `OUT_DIR` (default `target/hotspots`).

use chrono::{DateTime, NaiveDate, NaiveTime};
use rowkey::regions::Regions;
use rowkey::{hbase, Hashed, RowKey};
use rowkey_lab::{advise, Report, Simulation};

/// The natural key: time first. Every new row lands at the end of the key space.
#[derive(RowKey)]
struct TimeFirst {
    ts_millis: u64,
    event_id: u32,
}

/// The same key behind a salt byte: the md5 bucket (of 16) of the whole unsalted key.
#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
struct Salted {
    ts_millis: u64,
    event_id: u32,
}

/// The same key behind the first 4 bytes of its md5.
#[derive(RowKey)]
struct Md5Prefixed {
    #[rowkey(hash_prefix(len = 4))]
    ts_millis: u64,
    #[rowkey(hash_prefix(len = 4))]
    event_id: u32,
}

/// The HBase book's `[md5(host)][md5(type)][timestamp]`: each series in one place, the series
/// spread by their digests.
#[derive(RowKey)]
struct Metric {
    host: Hashed<8>,
    kind: Hashed<8>,
    ts: u64,
}

/// The message key as it was written: `yyMMdd:HHmmss:id`, time first.
#[derive(RowKey)]
#[rowkey(text, delimiter = ":")]
struct Message {
    #[rowkey(format = "%y%m%d")]
    day: NaiveDate,
    #[rowkey(format = "%H%M%S")]
    time: NaiveTime,
    #[rowkey(width = 7)]
    id: u32,
}

/// The same key behind 8 uppercase hex digits of the md5 of the whole key.
#[derive(RowKey)]
#[rowkey(text, delimiter = ":")]
struct HashedMessage {
    #[rowkey(format = "%y%m%d", hash_prefix(len = 8, upper))]
    day: NaiveDate,
    #[rowkey(format = "%H%M%S", hash_prefix(len = 8, upper))]
    time: NaiveTime,
    #[rowkey(width = 7, hash_prefix(len = 8, upper))]
    id: u32,
}

/// Writes: one every 10 ms for about 33 minutes.
const EVENTS: u64 = 200_000;
const T0: u64 = 1_686_464_400_000; // 2023-06-11T06:20:00Z
/// A region splits at this many rows.
const SPLIT_AT: u64 = 5_000;
const REGIONS: usize = 16;
/// Windows of one minute.
const MINUTE: u64 = 60_000;

/// One layout under test: its name, its keys for the stream, and what to report with its type.
struct Layout {
    name: &'static str,
    file: &'static str,
    keys: Vec<Vec<u8>>,
    split_keys: Vec<Vec<u8>>,
    report: fn(&Report) -> String,
    advice: Vec<String>,
}

fn layout<K: RowKey>(
    name: &'static str,
    file: &'static str,
    key: impl Fn(u64, u64) -> K,
) -> Layout {
    let keys = (0..EVENTS)
        .map(|i| key(T0 + i * 10, i).to_vec().expect("every event encodes"))
        .collect();
    Layout {
        name,
        file,
        keys,
        split_keys: K::split_keys(REGIONS),
        report: |r| r.heatmap::<K>().to_svg(),
        advice: advise::<K>().iter().map(ToString::to_string).collect(),
    }
}

/// A deterministic spread of small numbers: host and metric ids.
fn spread(i: u64, n: u64) -> u64 {
    (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) % n
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/hotspots".into());
    std::fs::create_dir_all(&out)?;
    let date = |ts: u64| {
        DateTime::from_timestamp_millis(ts as i64)
            .expect("in range")
            .naive_utc()
    };
    let layouts = [
        layout("time first [ts][id]", "time-first", |ts, i| TimeFirst {
            ts_millis: ts,
            event_id: i as u32,
        }),
        layout("salted [bucket of 16][ts][id]", "salted", |ts, i| Salted {
            ts_millis: ts,
            event_id: i as u32,
        }),
        layout(
            "md5-prefixed [md5[0..4]][ts][id]",
            "md5-prefixed",
            |ts, i| Md5Prefixed {
                ts_millis: ts,
                event_id: i as u32,
            },
        ),
        layout(
            "HBase book [md5(host)][md5(type)][ts]",
            "metric",
            |ts, i| Metric {
                host: Hashed::of(format!("web-{}", spread(i, 500))),
                kind: Hashed::of(["cpu", "mem", "disk", "net"][(i % 4) as usize]),
                ts,
            },
        ),
        layout("message yyMMdd:HHmmss:id", "message", |ts, i| Message {
            day: date(ts).date(),
            time: date(ts).time(),
            id: (i % 10_000_000) as u32,
        }),
        layout("message behind MD5 hex", "hashed-message", |ts, i| {
            HashedMessage {
                day: date(ts).date(),
                time: date(ts).time(),
                id: (i % 10_000_000) as u32,
            }
        }),
    ];

    println!(
        "{EVENTS} writes, one every 10 ms; windows of one minute; a region splits at {SPLIT_AT} rows, \
         or the table is pre-split into {REGIONS} regions.\n"
    );
    let mut first_report = String::new();
    println!(
        "| layout | table | regions at the end | busiest region's share of a minute | advice |"
    );
    println!("|---|---|---|---|---|");
    for l in &layouts {
        // Pre-split where the layout says (salt buckets, hash prefixes), else at 16 keys sampled
        // from the first tenth of the stream, as a store's samples of yesterday's data would be.
        let presplit = if l.split_keys.is_empty() {
            let mut sample: Vec<Vec<u8>> = l.keys[..l.keys.len() / 10].to_vec();
            sample.sort();
            (1..REGIONS)
                .map(|k| sample[k * sample.len() / REGIONS].clone())
                .collect()
        } else {
            l.split_keys.clone()
        };
        let mut tables = [
            ("auto-split", Simulation::auto_split(SPLIT_AT)),
            ("pre-split", Simulation::presplit(Regions::new(presplit)?)),
        ];
        for (t, key) in l.keys.iter().enumerate() {
            for (_, sim) in &mut tables {
                sim.write(T0 + t as u64 * 10, key);
            }
        }
        for (table, sim) in &tables {
            let report = sim.report(MINUTE);
            if l.file == "time-first" && *table == "auto-split" {
                first_report = report.to_string();
            }
            let file = format!("{out}/{}-{table}.svg", l.file);
            std::fs::write(&file, (l.report)(&report))?;
            println!(
                "| {} | {table} | {} | {:.3} | {} |",
                l.name,
                report.regions().len() + 1,
                report.hottest_share(),
                if l.advice.is_empty() {
                    "none"
                } else {
                    "hotspot"
                }
            );
        }
    }
    println!("\nOne report in full, the time-first key splitting by itself:\n{first_report}");
    println!("Advice from the layouts alone:");
    for l in &layouts {
        for advice in &l.advice {
            println!("- {advice}");
        }
    }
    println!("\nHeatmaps in {out}/ (time across, key space down).");

    let salted = Salted::split_keys(REGIONS);
    println!("\nPre-split the salted table in the HBase shell with:");
    println!("  {}", hbase::create_statement("events", &["d"], &salted));
    Ok(())
}

/// The layout locks of this example's keys (`rowkey::lock`; `test = true` in Cargo.toml).
#[test]
fn hotspot_keys_stay_readable() {
    let (ts_millis, event_id) = (1_700_000_000_000, 7);
    rowkey::lock::assert_locked(
        "tests/keys/hotspots-time-first.lock",
        &[TimeFirst {
            ts_millis,
            event_id,
        }],
    );
    rowkey::lock::assert_locked(
        "tests/keys/hotspots-salted.lock",
        &[Salted {
            ts_millis,
            event_id,
        }],
    );
    rowkey::lock::assert_locked(
        "tests/keys/hotspots-md5.lock",
        &[Md5Prefixed {
            ts_millis,
            event_id,
        }],
    );
    rowkey::lock::assert_locked(
        "tests/keys/hotspots-metric.lock",
        &[Metric {
            host: Hashed::of("web-1"),
            kind: Hashed::of("cpu"),
            ts: ts_millis,
        }],
    );
    let day = NaiveDate::from_ymd_opt(2023, 6, 11).expect("a date");
    let time = NaiveTime::from_hms_opt(6, 30, 31).expect("a time");
    rowkey::lock::assert_locked(
        "tests/keys/hotspots-message.lock",
        &[Message {
            day,
            time,
            id: 1_231_231,
        }],
    );
    rowkey::lock::assert_locked(
        "tests/keys/hotspots-hashed-message.lock",
        &[HashedMessage {
            day,
            time,
            id: 1_231_231,
        }],
    );
}
