//! A per-user activity timeline on embedded ordered stores (redb and fjall), read with typed scans.
//!
//! The key is a *reversed* user id (sequential ids spread over the key space instead of piling up
//! at its end) and a *descending* timestamp (a user's newest events come first). Three reads:
//! the latest 10 events of a user, a user's events between two times, and the events of the users
//! in an IN list. Each is a `K::scan()` whose ranges go to redb and to fjall as they are (a
//! `KeyRange`'s `bounds()`); both stores return the same rows.
//!
//! Run with `cargo run --example timeline`.

use redb::backends::InMemoryBackend;
use redb::{Database, TableDefinition};
use rowkey::{KeyRange, RowKey, Scan};

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum Action {
    Login = 1,
    View = 2,
    Comment = 3,
    Logout = 4,
}

#[derive(RowKey, Debug)]
struct Activity {
    /// Stored byte-reversed: consecutive ids differ in their first byte.
    #[rowkey(reverse)]
    user_id: u64,
    /// Newest first.
    #[rowkey(desc)]
    ts_millis: i64,
    action: Action,
    /// The last field: raw to the end of the key.
    page: String,
}

const TABLE: TableDefinition<&[u8], u32> = TableDefinition::new("activity");
const T0: i64 = 1_700_000_000_000;
const HOUR: i64 = 3_600_000;

/// The first `limit` keys of `plan` in redb: each range's `bounds()` is a redb range.
fn redb_keys(db: &Database, plan: &Scan<Activity>, limit: usize) -> Result<Vec<Vec<u8>>, Error> {
    let tx = db.begin_read()?;
    let table = tx.open_table(TABLE)?;
    let mut keys = Vec::new();
    for range in plan.ranges() {
        for entry in table.range::<&[u8]>(range.bounds())? {
            keys.push(entry?.0.value().to_vec());
            if keys.len() == limit {
                return Ok(keys);
            }
        }
    }
    Ok(keys)
}

/// The same from fjall: `bounds()` again, with the key type named (`&[u8]`).
fn fjall_keys(
    events: &fjall::Keyspace,
    plan: &Scan<Activity>,
    limit: usize,
) -> Result<Vec<Vec<u8>>, Error> {
    let mut keys = Vec::new();
    for range in plan.ranges() {
        for row in events.range::<&[u8], _>(range.bounds()) {
            keys.push(row.key()?.to_vec());
            if keys.len() == limit {
                return Ok(keys);
            }
        }
    }
    Ok(keys)
}

/// Runs `plan` against both stores, which must agree, and decodes the rows.
fn run(stores: &Stores, plan: &Scan<Activity>, limit: usize) -> Result<Vec<Activity>, Error> {
    let keys = redb_keys(&stores.redb, plan, limit)?;
    assert_eq!(
        keys,
        fjall_keys(&stores.fjall, plan, limit)?,
        "redb and fjall agree"
    );
    let rows = keys.iter().map(|k| Activity::decode(k));
    Ok(rows.collect::<Result<_, _>>()?)
}

type Error = Box<dyn std::error::Error>;

struct Stores {
    redb: Database,
    fjall: fjall::Keyspace,
}

fn show(title: &str, plan: &Scan<Activity>, rows: &[Activity]) {
    println!("\n{title}");
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    println!(
        "  {} range(s), exact: {}; in the HBase shell:",
        ranges.len(),
        plan.is_exact()
    );
    for r in &ranges {
        println!("    {}", r.to_shell_scan("activity"));
    }
    for a in rows {
        println!(
            "  user {:>4}  t0{:+6.1}h  {:<8} {}",
            a.user_id,
            (a.ts_millis - T0) as f64 / HOUR as f64,
            format!("{:?}", a.action),
            a.page
        );
    }
}

fn main() -> Result<(), Error> {
    let redb = Database::builder().create_with_backend(InMemoryBackend::new())?;
    let dir = std::env::temp_dir().join(format!("rowkey-timeline-{}", std::process::id()));
    let fjall_db = fjall::Database::builder(&dir).temporary(true).open()?;
    let fjall = fjall_db.keyspace("activity", fjall::KeyspaceCreateOptions::default)?;

    // 60,000 events: 300 users, each active at pseudo-random times over 10 days.
    let actions = [
        Action::Login,
        Action::View,
        Action::View,
        Action::Comment,
        Action::Logout,
    ];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let tx = redb.begin_write()?;
    let mut batch = fjall_db.batch();
    {
        let mut table = tx.open_table(TABLE)?;
        for i in 0..60_000u32 {
            let event = Activity {
                user_id: next() % 300 + 1,
                ts_millis: T0 + (next() % (240 * HOUR as u64)) as i64,
                action: actions[(next() % 5) as usize],
                page: format!("/post/{}", next() % 1_000),
            };
            let key = event.to_vec()?;
            table.insert(key.as_slice(), i)?;
            batch.insert(&fjall, key, i.to_be_bytes());
        }
    }
    tx.commit()?;
    batch.commit()?;
    println!("Loaded 60,000 events of 300 users into redb and fjall.");
    let db = Stores { redb, fjall };

    // 1. The latest 10 events of user 42: the first rows of the user's one range.
    let latest: Scan<Activity> = Activity::scan().user_id(42).into();
    let rows = run(&db, &latest, 10)?;
    assert!(
        rows.windows(2).all(|w| w[0].ts_millis >= w[1].ts_millis),
        "newest first"
    );
    show("1. Latest 10 events of user 42", &latest, &rows);

    // 2. User 42 between hours 48 and 72; the bounds are plain times even though ts is desc.
    let window: Scan<Activity> = Activity::scan()
        .user_id(42)
        .ts_millis_range(T0 + 48 * HOUR..T0 + 72 * HOUR)
        .into();
    let rows = run(&db, &window, usize::MAX)?;
    assert!(rows
        .iter()
        .all(|a| (T0 + 48 * HOUR..T0 + 72 * HOUR).contains(&a.ts_millis)));
    show("2. User 42 between hour 48 and hour 72", &window, &rows);

    // 3. The users of an IN list (any order, duplicates allowed): one range per user.
    let team: Scan<Activity> = Activity::scan()
        .user_id_in([7, 99, 42, 7])
        .ts_millis_range(T0 + 230 * HOUR..)
        .into();
    let rows = run(&db, &team, usize::MAX)?;
    assert!(rows
        .iter()
        .all(|a| [7, 42, 99].contains(&a.user_id) && a.ts_millis >= T0 + 230 * HOUR));
    show("3. Users 7, 42 and 99 in the last 10 hours", &team, &rows);
    Ok(())
}

/// The layout lock of this example's key (`rowkey::lock`; `test = true` in Cargo.toml).
#[cfg(feature = "lock")] // `cargo test --features lock`: the lock needs its feature
#[test]
fn activity_keys_stay_readable() {
    rowkey::lock::assert_locked(
        "tests/keys/examples/timeline.lock",
        &[
            Activity {
                user_id: 42,
                ts_millis: T0,
                action: Action::Comment,
                page: "/home".into(),
            },
            Activity {
                user_id: 1,
                ts_millis: 0,
                action: Action::Login,
                page: String::new(),
            },
        ],
    );
}
