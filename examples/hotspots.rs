//! Why salting and hashing exist: the same 1,000,000 time-ordered events written under three row-key
//! layouts into a table pre-split into 16 regions, with a bar chart of rows per region and the skew
//! (the busiest region over the mean: 1.0 is even, 16.0 is one region taking everything).
//!
//! Run with `cargo run --release --example hotspots`.

use rowkey::regions::Regions;
use rowkey::{hbase, RowKey};

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

const EVENTS: u32 = 1_000_000;
const REGIONS: usize = 16;
const RECENT: u32 = 10_000;
const BAR: usize = 40;

struct Outcome {
    counts: Vec<u64>,
    skew: f64,
    recent_share: f64,
}

/// Writes every event's key into the regions and counts rows per region, overall and for the
/// newest `RECENT` events (where the write load is right now).
fn simulate(splits: Vec<Vec<u8>>, key_of: impl Fn(u64, u32) -> Vec<u8>) -> Outcome {
    let regions = Regions::new(splits).expect("sorted split points");
    let mut all = regions.counter();
    let mut recent = regions.counter();
    let t0: u64 = 1_700_000_000_000;
    for i in 0..EVENTS {
        let key = key_of(t0 + u64::from(i) * 10, i);
        all.add(&key);
        if i >= EVENTS - RECENT {
            recent.add(&key);
        }
    }
    let busiest_recent = recent.counts().iter().copied().max().unwrap_or(0);
    Outcome {
        counts: all.counts().to_vec(),
        skew: all.skew().unwrap_or(0.0),
        recent_share: busiest_recent as f64 / f64::from(RECENT),
    }
}

/// Every byte as `\xHH`: split points are bytes, and a printable one (0x20 is a space) would hide.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02X}")).collect()
}

fn print_layout(title: &str, how: &str, splits: &[Vec<u8>], outcome: &Outcome) {
    println!("\n{title}");
    println!("  {how}");
    let max = outcome.counts.iter().copied().max().unwrap_or(1).max(1);
    for (i, &count) in outcome.counts.iter().enumerate() {
        let start = if i == 0 {
            String::from("(start)")
        } else {
            hex(&splits[i - 1])
        };
        let filled = ((count as f64 / max as f64) * BAR as f64).round() as usize;
        println!(
            "  r{i:02} from {start:<22} {:<BAR$} {count:>9} {:>5.1}%",
            "█".repeat(filled),
            100.0 * count as f64 / f64::from(EVENTS),
        );
    }
    println!(
        "  skew {:.2} (busiest region / mean); the busiest region took {:.1}% of the newest {RECENT} writes",
        outcome.skew,
        100.0 * outcome.recent_share
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "{EVENTS} events, one every 10 ms, written into a table pre-split into {REGIONS} regions."
    );

    // A time-first key has no split that stays even: the future is all at the end. Pre-splitting
    // it uniformly over the first byte (HBase's UniformSplit) puts every row in the first region.
    let uniform: Vec<Vec<u8>> = (1..REGIONS)
        .map(|i| vec![(i * 256 / REGIONS) as u8])
        .collect();
    let time_first = simulate(uniform.clone(), |ts_millis, event_id| {
        TimeFirst {
            ts_millis,
            event_id,
        }
        .to_vec()
        .expect("fixed layout")
    });
    print_layout(
        "1. Timestamp first: [ts_millis][event_id]",
        "split uniformly over the first byte",
        &uniform,
        &time_first,
    );

    let salted_splits = Salted::split_keys(REGIONS);
    let salted = simulate(salted_splits.clone(), |ts_millis, event_id| {
        Salted {
            ts_millis,
            event_id,
        }
        .to_vec()
        .expect("fixed layout")
    });
    print_layout(
        "2. Salted: [md5 bucket of 16][ts_millis][event_id]",
        "split at the bucket boundaries: Salted::split_keys(16)",
        &salted_splits,
        &salted,
    );

    let hashed_splits = Md5Prefixed::split_keys(REGIONS);
    let hashed = simulate(hashed_splits.clone(), |ts_millis, event_id| {
        Md5Prefixed {
            ts_millis,
            event_id,
        }
        .to_vec()
        .expect("fixed layout")
    });
    print_layout(
        "3. MD5-prefixed: [md5(ts_millis, event_id)[0..4]][ts_millis][event_id]",
        "split at evenly spaced prefixes: Md5Prefixed::split_keys(16)",
        &hashed_splits,
        &hashed,
    );

    println!("\nSummary ({EVENTS} events, {REGIONS} regions):");
    println!(
        "  {:<16} {:>6}  {:>24}",
        "layout", "skew", "newest writes on 1 region"
    );
    for (name, o) in [
        ("timestamp first", &time_first),
        ("salted", &salted),
        ("md5-prefixed", &hashed),
    ] {
        println!(
            "  {name:<16} {:>6.2}  {:>23.1}%",
            o.skew,
            100.0 * o.recent_share
        );
    }

    println!("\nPre-split the salted table in the HBase shell with:");
    println!(
        "  {}",
        hbase::create_statement("events", &["d"], &salted_splits)
    );
    let bucket = Salted {
        ts_millis: 1_700_000_000_000,
        event_id: 0,
    }
    .to_vec()?[0];
    println!("and scan the bucket of the first event with:");
    println!(
        "  {}",
        hbase::scan_command("events", &[bucket], &[bucket + 1])
    );
    Ok(())
}

/// The layout locks of this example's keys (`rowkey::lock`; `test = true` in Cargo.toml).
#[test]
fn hotspot_keys_stay_readable() {
    let (ts_millis, event_id) = (1_700_000_000_000, 7);
    rowkey::lock::assert_locked(
        "tests/keys/examples/hotspots-time-first.lock",
        &[TimeFirst {
            ts_millis,
            event_id,
        }],
    );
    rowkey::lock::assert_locked(
        "tests/keys/examples/hotspots-salted.lock",
        &[Salted {
            ts_millis,
            event_id,
        }],
    );
    rowkey::lock::assert_locked(
        "tests/keys/examples/hotspots-md5.lock",
        &[Md5Prefixed {
            ts_millis,
            event_id,
        }],
    );
}
