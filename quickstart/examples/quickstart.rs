//! Quick start: an event key with a user id, a reversed (descending) timestamp, an event kind and a
//! host. Keys sort by user, then newest first: the cheap scan "latest events of a user" reads the
//! first rows of that user's range.
//!
//! Run with `cargo run --example quickstart` at the top of the repository. It lives in a package
//! of its own (`quickstart/`), which needs only `rowkey`, so its first build takes seconds.

use std::collections::BTreeMap;

use rowkey::{hbase, RowKey};

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum EventKind {
    PageView = 1,
    Click = 2,
    Purchase = 3,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct EventKey {
    user_id: u64,
    /// Newest first. For ts >= 0 these are the bytes of Java's `Long.MAX_VALUE - ts`.
    #[rowkey(desc)]
    ts_millis: i64,
    kind: EventKind,
    /// The last field: its raw bytes run to the end of the key.
    host: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let t0 = 1_700_000_000_000; // 2023-11-14T22:13:20Z
    let events = [
        (7, t0, EventKind::PageView, "web-1"),
        (42, t0 + 5_000, EventKind::Click, "web-2"),
        (7, t0 + 60_000, EventKind::Purchase, "web-1"),
        (42, t0, EventKind::PageView, "web-3"),
        (7, t0 + 1_000, EventKind::Click, "web-2"),
        (42, t0 + 3_600_000, EventKind::Purchase, "web-1"),
    ];

    // An ordered store keeps rows sorted by key bytes; a BTreeMap does the same in memory.
    let mut table = BTreeMap::new();
    for (user_id, ts_millis, kind, host) in events {
        let key = EventKey {
            user_id,
            ts_millis,
            kind,
            host: host.to_string(),
        };
        table.insert(key.to_vec()?, key);
    }

    println!("Rows in byte order (keys as the HBase shell prints them):\n");
    let width = table
        .keys()
        .map(|k| hbase::to_string_binary(k).len())
        .max()
        .unwrap_or(0);
    println!(
        "  {:<width$}  {:>4}  {:>13}  {:<9} host",
        "row key", "user", "ts_millis", "kind"
    );
    for (bytes, written) in &table {
        // Decoding gives back exactly what was written.
        let key = EventKey::decode(bytes)?;
        assert_eq!(&key, written);
        println!(
            "  {:<width$}  {:>4}  {:>13}  {:<9} {}",
            hbase::to_string_binary(bytes),
            key.user_id,
            key.ts_millis,
            format!("{:?}", key.kind),
            key.host
        );
    }

    // Newest first within each user: the first row of user 42's range is their latest event.
    let latest_42 = table
        .values()
        .find(|k| k.user_id == 42)
        .expect("user 42 has events");
    println!(
        "\nLatest event of user 42: {:?} at {} (the first row of the user's range)",
        latest_42.kind, latest_42.ts_millis
    );

    // The timestamp bytes are Java's Long.MAX_VALUE - ts, so Java writers and readers agree.
    let key = table.keys().next().expect("rows");
    let ts_bytes: [u8; 8] = key[8..16].try_into()?;
    println!(
        "Timestamp bytes of the first row: {} = Long.MAX_VALUE - {}",
        hbase::to_string_binary(&ts_bytes),
        i64::MAX - i64::from_be_bytes(ts_bytes)
    );
    Ok(())
}

/// The layout lock (`rowkey::lock`): a change to `EventKey` that would leave stored rows
/// unreadable fails this test, naming the field. `cargo test --example quickstart` runs it (`test =
/// true` in Cargo.toml; in your crate, `rowkey` with `lock` in `[dev-dependencies]` and a plain
/// `cargo test`); `ROWKEY_LOCK=update cargo test --example quickstart` records a change you mean.
#[test]
fn event_keys_stay_readable() {
    rowkey::lock::assert_locked(
        "../tests/keys/examples/quickstart.lock",
        &[
            EventKey {
                user_id: 42,
                ts_millis: 1_700_000_000_000,
                kind: EventKind::Click,
                host: "web-2".into(),
            },
            EventKey {
                user_id: 0,
                ts_millis: 0,
                kind: EventKind::PageView,
                host: String::new(),
            },
        ],
    );
}
