//! A per-user activity timeline on an embedded ordered store (redb), read with typed scans.
//!
//! The key is a *reversed* user id (sequential ids spread over the key space instead of piling up
//! at its end) and a *descending* timestamp (a user's newest events come first). Three reads:
//! the latest 10 events of a user, a user's events between two times, and the events of the users
//! in an IN list. Each is a `K::scan()` turned into redb range scans.
//!
//! Run with `cargo run --example timeline`.

use std::ops::Bound;

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

/// Runs `plan` against the table: one redb range per planned range, in order.
fn run(
    db: &Database,
    plan: &Scan<Activity>,
    limit: usize,
) -> Result<Vec<Activity>, Box<dyn std::error::Error>> {
    let tx = db.begin_read()?;
    let table = tx.open_table(TABLE)?;
    let mut rows = Vec::new();
    for range in plan.ranges() {
        let stop = if range.stop().is_empty() {
            Bound::Unbounded
        } else {
            Bound::Excluded(range.stop())
        };
        for entry in table.range::<&[u8]>((Bound::Included(range.start()), stop))? {
            let (key, _) = entry?;
            rows.push(Activity::decode(key.value())?);
            if rows.len() == limit {
                return Ok(rows);
            }
        }
    }
    Ok(rows)
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = Database::builder().create_with_backend(InMemoryBackend::new())?;

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
    let tx = db.begin_write()?;
    {
        let mut table = tx.open_table(TABLE)?;
        for i in 0..60_000u32 {
            let event = Activity {
                user_id: next() % 300 + 1,
                ts_millis: T0 + (next() % (240 * HOUR as u64)) as i64,
                action: actions[(next() % 5) as usize],
                page: format!("/post/{}", next() % 1_000),
            };
            table.insert(event.to_vec()?.as_slice(), i)?;
        }
    }
    tx.commit()?;
    println!("Loaded 60,000 events of 300 users into redb.");

    // 1. The latest 10 events of user 42: the first rows of the user's one range.
    let latest = Activity::scan().user_id(42);
    let rows = run(&db, &latest, 10)?;
    assert!(
        rows.windows(2).all(|w| w[0].ts_millis >= w[1].ts_millis),
        "newest first"
    );
    show("1. Latest 10 events of user 42", &latest, &rows);

    // 2. User 42 between hours 48 and 72; the bounds are plain times even though ts is desc.
    let window = Activity::scan()
        .user_id(42)
        .ts_millis_range(T0 + 48 * HOUR..T0 + 72 * HOUR);
    let rows = run(&db, &window, usize::MAX)?;
    assert!(rows
        .iter()
        .all(|a| (T0 + 48 * HOUR..T0 + 72 * HOUR).contains(&a.ts_millis)));
    show("2. User 42 between hour 48 and hour 72", &window, &rows);

    // 3. The users of an IN list (any order, duplicates allowed): one range per user.
    let team = Activity::scan()
        .user_id_in([7, 99, 42, 7])
        .ts_millis_range(T0 + 230 * HOUR..);
    let rows = run(&db, &team, usize::MAX)?;
    assert!(rows
        .iter()
        .all(|a| [7, 42, 99].contains(&a.user_id) && a.ts_millis >= T0 + 230 * HOUR));
    show("3. Users 7, 42 and 99 in the last 10 hours", &team, &rows);
    Ok(())
}
