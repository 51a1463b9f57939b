//! Scan plans against real ordered stores, redb and fjall. Each layout (salted, hashed, desc strings,
//! width/Option/nested, whole-key salt, fixed without a prefix, salted and hashed text) is
//! described once: how to draw a value, and the kinds of query to draw. One runner loads the values
//! into an in-memory redb database and a fjall keyspace, runs random scans of each kind in turn
//! through `ranges()` as range scans of both stores (each `KeyRange`'s `bounds()`; the two must
//! return the same keys), and compares them with a brute-force filter over the decoded values (an
//! independent predicate written in plain Rust): ranges are sorted and disjoint, merged when
//! adjacent unless salted, and never span salt buckets; no expected row is ever missing; no extra
//! or duplicate row comes back when the plan `is_exact()`; `matches()` agrees with the predicate;
//! and salted results merged per bucket come out in unsalted order. Each plan is also resumed
//! after a key (`after`), read page by page as a paging client does (each page resumes after the
//! last key read), and split at random boundaries (`split`): every read returns exactly the rows
//! of the whole plan past the cut, each once, and every split part stays inside its region (the
//! cuts of each plan read from one of the two stores, each in turn).
//!
//! 10,000 keys and 200 scans per layout; 100,000 keys and 1,000 scans with `ROWKEY_SOAK=1`.

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::ops::Bound;

use redb::backends::InMemoryBackend;
use redb::{Database, TableDefinition};
use rowkey::merge::merge_by_key;
use rowkey::{DecodeKey, KeyRange, RowKey, Scan};

mod common;
use common::{in_range, scaled, Rng};

const TABLE: TableDefinition<&[u8], ()> = TableDefinition::new("rows");

/// Every key with its decoded value, in key order.
type Rows<K> = [(Vec<u8>, K)];

/// A drawn query: the plan, the predicate over decoded values it must agree with, and a label.
type Query<K> = (Scan<K>, Box<dyn Fn(&K) -> bool>, &'static str);

/// A kind of query: draws one, from `rng` or from the loaded rows.
type QueryKind<K> = fn(&mut Rng, &Rows<K>) -> Query<K>;

/// One layout under test.
struct Layout<K: 'static> {
    name: &'static str,
    seed: u64,
    /// Salted: ranges of different buckets stay apart, and results are merged back in key order.
    salted: bool,
    /// What share of the plans must be exact, when the layout promises one.
    exact: Option<Exact>,
    value: fn(&mut Rng) -> K,
    /// Drawn in turn.
    queries: &'static [QueryKind<K>],
}

enum Exact {
    All,
    Half,
}

/// A table of query kinds, each `"label", |rng, rows| { draws } plan => |v| predicate;`: the
/// statements that draw its values (from `rng`, or from the loaded `rows`), the plan built from
/// them, and the predicate over a decoded value `v` that the plan must agree with.
macro_rules! kinds {
    ($($label:literal, |$rng:pat_param, $rows:pat_param| { $($draw:tt)* }
        $plan:expr => |$v:ident| $pred:expr;)*) => {
        &[$(|$rng, $rows| {
            $($draw)*
            query($plan, move |$v| $pred, $label)
        }),*]
    };
}

fn query<K>(
    plan: impl Into<Scan<K>>,
    pred: impl Fn(&K) -> bool + 'static,
    label: &'static str,
) -> Query<K> {
    (plan.into(), Box::new(pred), label)
}

/// An ordered store a plan's ranges are read from.
trait Store {
    /// At most `limit` keys of `range`, in key order.
    fn range(&self, range: &KeyRange, limit: usize) -> Vec<Vec<u8>>;
}

/// The first `limit` keys of each range that `store` returns, range by range.
fn read_store(store: &dyn Store, ranges: &[KeyRange], limit: usize) -> Vec<Vec<Vec<u8>>> {
    let mut left = limit;
    let mut per_range = Vec::new();
    for r in ranges {
        if left == 0 {
            break;
        }
        let keys = store.range(r, left);
        left -= keys.len();
        per_range.push(keys);
    }
    per_range
}

/// An in-memory redb table; ranges go in through their `Bound`s.
struct Redb(Database);

impl Redb {
    fn load(keys: &[&[u8]]) -> Self {
        let db = Database::builder().create_with_backend(InMemoryBackend::new());
        let db = db.expect("in-memory redb");
        let tx = db.begin_write().unwrap();
        {
            let mut table = tx.open_table(TABLE).unwrap();
            for k in keys {
                table.insert(*k, ()).unwrap();
            }
        }
        tx.commit().unwrap();
        Redb(db)
    }
}

impl Store for Redb {
    fn range(&self, range: &KeyRange, limit: usize) -> Vec<Vec<u8>> {
        let tx = self.0.begin_read().unwrap();
        let table = tx.open_table(TABLE).unwrap();
        let rows = table.range::<&[u8]>(range.bounds()).unwrap();
        rows.take(limit)
            .map(|e| e.unwrap().0.value().to_vec())
            .collect()
    }
}

/// A fjall keyspace in a temporary directory (removed when it is dropped).
struct Fjall {
    rows: fjall::Keyspace,
    _db: fjall::Database,
}

impl Fjall {
    fn load(keys: &[&[u8]], name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("rowkey-store-scans-{}-{name}", std::process::id()));
        let db = fjall::Database::builder(&dir).temporary(true).open();
        let db = db.unwrap_or_else(|e| panic!("fjall at {}: {e}", dir.display()));
        let rows = db.keyspace("rows", fjall::KeyspaceCreateOptions::default);
        let rows = rows.expect("fjall keyspace");
        let mut batch = db.batch();
        for k in keys {
            batch.insert(&rows, *k, []);
        }
        batch.commit().expect("fjall write");
        Fjall { rows, _db: db }
    }
}

impl Store for Fjall {
    fn range(&self, range: &KeyRange, limit: usize) -> Vec<Vec<u8>> {
        // `bounds()` is both a `RangeBounds<[u8]>` and a `RangeBounds<&[u8]>`: fjall takes keys
        // that are `AsRef<[u8]>`, so the second.
        (self.rows.range::<&[u8], _>(range.bounds()).take(limit))
            .map(|row| row.key().expect("fjall read").to_vec())
            .collect()
    }
}

/// A loaded layout: the stores, and every key with its decoded value.
struct Table<K> {
    stores: [(&'static str, Box<dyn Store>); 2],
    rows: Vec<(Vec<u8>, K)>,
    salted: bool,
}

#[derive(Default, Debug)]
struct Stats {
    scans: usize,
    exact: usize,
    expected_rows: usize,
    ranges: usize,
    /// Plans with a pattern for a store's row filter, and those whose pattern is exact.
    patterns: usize,
    exact_patterns: usize,
}

/// Loads the layout's values, runs its query kinds in turn and checks each plan against the store.
fn run<K: RowKey + for<'k> DecodeKey<'k> + Debug>(layout: &Layout<K>) {
    let (keys, scans) = (scaled(10_000, 100_000), scaled(200, 1_000));
    let (name, mut rng) = (layout.name, Rng(layout.seed));
    let values = (0..keys).map(|_| (layout.value)(&mut rng));
    let t = Table::load(values, layout.salted, name);
    let mut stats = Stats::default();
    for i in 0..scans {
        let (plan, pred, label) = layout.queries[i % layout.queries.len()](&mut rng, &t.rows);
        let what = format!("{name} {label}");
        let whole = t.check(&plan, &pred, &mut stats, &what);
        t.check_cuts(&plan, &whole, &pred, &mut rng, i, &what);
    }
    assert!(stats.expected_rows > scans, "{name}: too few rows hit");
    match layout.exact {
        Some(Exact::All) => assert_eq!(stats.exact, scans, "{name}: inexact plans"),
        Some(Exact::Half) => assert!(stats.exact >= scans / 2, "{name}: {stats:?}"),
        None => {}
    }
    if layout.name.starts_with("hashed behind") {
        // Queries that leave the hash sources unbound and bind what follows the prefix.
        assert!(
            stats.exact_patterns > 0,
            "{name}: no exact pattern: {stats:?}"
        );
        assert!(
            stats.patterns > stats.exact_patterns,
            "{name}: no inexact pattern: {stats:?}"
        );
    }
    println!(
        "{name}: {} distinct keys of {keys}, {stats:?}",
        t.rows.len()
    );
}

impl<K: RowKey + for<'k> DecodeKey<'k>> Table<K> {
    /// The values in fresh stores (duplicate keys dropped).
    fn load(values: impl Iterator<Item = K>, salted: bool, name: &str) -> Self {
        let mut rows: Vec<_> = values.map(|v| (v.to_vec().expect("encode"), v)).collect();
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        rows.dedup_by(|a, b| a.0 == b.0);
        let keys: Vec<&[u8]> = rows.iter().map(|(k, _)| k.as_slice()).collect();
        let stores: [(&'static str, Box<dyn Store>); 2] = [
            ("redb", Box::new(Redb::load(&keys))),
            ("fjall", Box::new(Fjall::load(&keys, name))),
        ];
        for (k, _) in rows.iter().take(100) {
            assert_eq!(&K::decode(k).unwrap().to_vec().unwrap(), k);
        }
        Table {
            stores,
            rows,
            salted,
        }
    }

    /// The first `limit` keys of each range, range by range: every store must return the same.
    fn read_ranges(&self, ranges: &[KeyRange], limit: usize) -> Vec<Vec<Vec<u8>>> {
        let [(first_name, first), others @ ..] = &self.stores;
        let keys = read_store(first.as_ref(), ranges, limit);
        for (name, store) in others {
            assert!(
                read_store(store.as_ref(), ranges, limit) == keys,
                "{name} and {first_name} read other keys for {ranges:?}"
            );
        }
        keys
    }

    /// The keys the stores return for each range, range by range.
    fn scan(&self, ranges: &[KeyRange]) -> Vec<Vec<Vec<u8>>> {
        self.read_ranges(ranges, usize::MAX)
    }

    /// Runs one plan against the store and checks it against `pred` over the decoded values.
    /// Returns the keys the plan reads and keeps, as [`Table::read`] does.
    fn check(
        &self,
        plan: &Scan<K>,
        pred: impl Fn(&K) -> bool,
        stats: &mut Stats,
        what: &str,
    ) -> Vec<Vec<u8>> {
        let ranges: Vec<KeyRange> = plan.ranges().collect();
        for w in ranges.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            let sorted = !a.stop().is_empty() && a.stop() <= b.start();
            assert!(sorted, "{what}: overlap or unsorted: {a:?} {b:?}");
            let merged = self.salted || a.stop() < b.start();
            assert!(merged, "{what}: adjacent, not merged: {a:?} {b:?}");
        }
        for r in ranges.iter().filter(|_| self.salted) {
            let bucket = r.start().first().copied();
            let stop_bucket_ok = r.stop().is_empty()
                || r.stop().first().copied() == bucket
                || r.stop() == [bucket.unwrap_or(0).wrapping_add(1)];
            assert!(stop_bucket_ok, "{what}: a range spans salt buckets: {r:?}");
        }
        let per_range = self.scan(&ranges);
        let returned: Vec<&[u8]> = per_range.iter().flatten().map(Vec::as_slice).collect();
        let inside = |k: &&[u8]| plan.is_exact() || plan.matches(k);
        let got: BTreeSet<&[u8]> = returned.iter().copied().filter(inside).collect();
        let expected: BTreeSet<&[u8]> = (self.rows.iter())
            .filter_map(|(k, v)| pred(v).then_some(k.as_slice()))
            .collect();
        let missing: Vec<_> = expected.difference(&got).take(3).collect();
        assert!(
            missing.is_empty(),
            "{what}: missing {missing:02X?} in {ranges:?}"
        );
        if plan.is_exact() {
            assert_eq!(returned.len(), got.len(), "{what}: duplicate rows");
            let extra: Vec<_> = got.difference(&expected).take(3).collect();
            assert!(extra.is_empty(), "{what}: extra {extra:02X?} in {ranges:?}");
            stats.exact += 1;
        }
        // matches() is exact for every row, inside the ranges or not.
        let rows = &self.rows;
        let returned_rows = returned.iter().take(50).filter_map(|k| {
            let i = rows.binary_search_by(|(rk, _)| rk.as_slice().cmp(k)).ok();
            i.map(|i| &rows[i])
        });
        for (k, v) in rows.iter().step_by(97).chain(returned_rows) {
            let (m, p) = (plan.matches(k), pred(v));
            assert_eq!(m, p, "{what}: matches({k:02X?}) disagrees");
        }
        // The pattern a store's row filter tests: never narrower than the plan; when exact, it
        // alone keeps exactly the matching rows inside the ranges.
        if let Some(pattern) = plan.pattern() {
            for (k, v) in rows.iter() {
                let p = pred(v);
                assert!(!p || pattern.matches(k), "{what}: pattern misses {k:02X?}");
                let inside = ranges.iter().any(|r| r.contains(k));
                if pattern.is_exact() && inside {
                    assert_eq!(pattern.matches(k), p, "{what}: exact pattern on {k:02X?}");
                }
            }
            stats.patterns += 1;
            stats.exact_patterns += usize::from(pattern.is_exact());
        }
        if self.salted && ranges.len() > 1 {
            // Each bucket's rows come back sorted; merged by the key after the salt byte they are
            // in the order of the unsalted key.
            let streams = per_range.iter().map(|keys| keys.iter().cloned()).collect();
            let merged: Vec<Vec<u8>> =
                merge_by_key(streams, 1, |k: &Vec<u8>| k.as_slice()).collect();
            let in_order = merged.windows(2).all(|w| w[0][1..] <= w[1][1..]);
            assert!(in_order, "{what}: merge out of order");
            assert_eq!(merged.len(), returned.len(), "{what}: merge lost rows");
        }
        stats.scans += 1;
        stats.expected_rows += expected.len();
        stats.ranges += ranges.len();
        returned
            .into_iter()
            .filter(inside)
            .map(<[u8]>::to_vec)
            .collect()
    }
}

impl<K: RowKey + for<'k> DecodeKey<'k>> Table<K> {
    /// The keys a plan reads from `store` and keeps (inside its ranges, and matching when it is
    /// not exact), in the order the ranges return them, duplicates included.
    fn read(&self, store: &dyn Store, plan: &Scan<K>) -> Vec<Vec<u8>> {
        let ranges: Vec<KeyRange> = plan.ranges().collect();
        let keys = read_store(store, &ranges, usize::MAX).into_iter().flatten();
        keys.filter(|k| plan.is_exact() || plan.matches(k))
            .collect()
    }

    /// The rows `pred` selects whose keys `keep` accepts, in key order.
    fn expected(&self, pred: &dyn Fn(&K) -> bool, keep: impl Fn(&[u8]) -> bool) -> Vec<Vec<u8>> {
        (self.rows.iter())
            .filter(|(k, v)| pred(v) && keep(k))
            .map(|(k, _)| k.clone())
            .collect()
    }

    /// `after` at a random key, paging with a random page size, and `split` at random boundaries:
    /// each returns exactly the plan's rows past the cut, once, inside its region. `whole`: the
    /// keys the plan itself reads and keeps (`check` read them, from every store, which agreed).
    /// The cuts are read from one store, each store in turn (the `i`th plan's): reading them
    /// from both took most of the soak's time, and `check` already holds the stores to one answer.
    fn check_cuts(
        &self,
        plan: &Scan<K>,
        whole: &[Vec<u8>],
        pred: &dyn Fn(&K) -> bool,
        rng: &mut Rng,
        i: usize,
        what: &str,
    ) {
        let store = self.stores[i % self.stores.len()].1.as_ref();
        let some_key = |rng: &mut Rng| match rng.below(4) {
            0 => (0..rng.below(4)).map(|_| rng.byte()).collect(),
            _ => self.rows[rng.index(self.rows.len())].0.clone(),
        };
        // Resume after a key.
        let cut = some_key(rng);
        let rest = plan.after(&cut);
        let mut got = self.read(store, &rest);
        assert!(
            got.iter().all(|k| *k > cut),
            "{what}: after({cut:02X?}) read a key at or before it"
        );
        got.sort();
        let expected = self.expected(pred, |k| k > cut.as_slice());
        if rest.is_exact() {
            assert_eq!(got, expected, "{what}: after({cut:02X?})");
        } else {
            got.dedup();
            assert_eq!(
                got, expected,
                "{what}: after({cut:02X?}), filtered by matches"
            );
        }
        for (k, v) in self.rows.iter().step_by(101) {
            let want = pred(v) && k > &cut;
            assert_eq!(
                rest.matches(k),
                want,
                "{what}: after({cut:02X?}).matches({k:02X?})"
            );
        }
        // Page through the plan as a client with a page limit does, every third plan.
        if i % 3 == 0 {
            // 1 to 40 rows a page, but at most about 20 pages.
            let rows = self.expected(pred, |_| true).len();
            let page = (1 + rng.index(40)).max(rows / 20 + 1);
            let mut plan = plan.clone();
            let mut pages = Vec::new();
            for pass in 0.. {
                // Each page moves past at least one row, or the paging never ends.
                assert!(
                    pass <= self.rows.len(),
                    "{what}: paging by {page} makes no progress"
                );
                let ranges: Vec<KeyRange> = plan.ranges().collect();
                let read: Vec<Vec<u8>> = read_store(store, &ranges, page)
                    .into_iter()
                    .flatten()
                    .collect();
                let Some(last) = read.last().cloned() else {
                    break;
                };
                pages.extend(
                    read.into_iter()
                        .filter(|k| plan.is_exact() || plan.matches(k)),
                );
                plan = plan.after(&last);
            }
            let expected = self.expected(pred, |_| true);
            let mut got = pages.clone();
            got.sort();
            assert_eq!(
                got, expected,
                "{what}: paged by {page}, each page after the last key"
            );
            assert!(
                pages.windows(2).all(|w| w[0] < w[1]) || self.salted,
                "{what}: pages out of order"
            );
        }
        // Split at random boundaries: the parts read the plan's rows, each once, in their regions.
        let boundaries: Vec<Vec<u8>> = (0..rng.below(6)).map(|_| some_key(rng)).collect();
        let parts = plan.split(&boundaries);
        let mut distinct = boundaries.clone();
        distinct.retain(|b| !b.is_empty());
        distinct.sort();
        distinct.dedup();
        assert_eq!(
            parts.len(),
            distinct.len() + 1,
            "{what}: one part per region"
        );
        let mut all = Vec::new();
        for (j, part) in parts.iter().enumerate() {
            let lo = if j == 0 {
                &[][..]
            } else {
                distinct[j - 1].as_slice()
            };
            let hi = distinct.get(j).map(Vec::as_slice);
            for r in part.ranges() {
                let inside =
                    r.start() >= lo && hi.map_or(true, |hi| !r.stop().is_empty() && r.stop() <= hi);
                assert!(
                    inside,
                    "{what}: part {j} range {r:?} outside [{lo:02X?}, {hi:02X?})"
                );
            }
            all.extend(self.read(store, part));
        }
        all.sort();
        let mut whole_sorted = whole.to_vec();
        whole_sorted.sort();
        assert_eq!(
            all, whole_sorted,
            "{what}: split at {distinct:02X?} reads other rows than the plan"
        );
    }
}

/// A random row's value.
fn row<K: Clone>(rng: &mut Rng, rows: &Rows<K>) -> K {
    rows[rng.index(rows.len())].1.clone()
}

/// A range of owned strings as the `&str` range the builders take.
fn strs(r: &(Bound<String>, Bound<String>)) -> (Bound<&str>, Bound<&str>) {
    let (lo, hi) = r;
    (
        lo.as_ref().map(|s| s.as_str()),
        hi.as_ref().map(|s| s.as_str()),
    )
}

#[test]
fn salted_layout_scans_match_brute_force() {
    run(&SALTED)
}

#[test]
fn hashed_layout_scans_match_brute_force() {
    run(&HASHED)
}

#[test]
fn desc_string_layout_scans_match_brute_force() {
    run(&NAMES)
}

#[test]
fn width_option_nested_layout_scans_match_brute_force() {
    run(&MIXED)
}

#[test]
fn whole_key_salted_layout_scans_match_brute_force() {
    run(&WHOLE_SALTED)
}

#[test]
fn fixed_layout_scans_match_brute_force() {
    run(&FIXED)
}

#[test]
fn salted_text_layout_scans_match_brute_force() {
    run(&TEXT_SALTED)
}

#[test]
fn hashed_behind_a_field_layout_scans_match_brute_force() {
    run(&SERIES)
}

#[test]
fn hashed_behind_a_field_text_layout_scans_match_brute_force() {
    run(&TEXT_SERIES)
}

#[test]
fn hashed_text_layout_scans_match_brute_force() {
    run(&TEXT_HASHED)
}

// ---------------------------------------------------------------- salted

#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    View,
    Click,
    Buy,
}

const KINDS: [Kind; 3] = [Kind::View, Kind::Click, Kind::Buy];

fn kinds(rng: &mut Rng) -> Vec<Kind> {
    (0..rng.below(3)).map(|_| *rng.pick(&KINDS)).collect()
}

#[derive(RowKey, Debug, Clone)]
struct Salted {
    #[rowkey(salt(buckets = 8))]
    user: u32,
    #[rowkey(desc)]
    ts: i64,
    kind: Kind,
}

const SALTED: Layout<Salted> = Layout {
    name: "salted",
    seed: 11,
    salted: true,
    exact: None,
    value: |rng| Salted {
        user: rng.below(400) as u32,
        ts: rng.below(20_000) as i64 - 10_000,
        kind: *rng.pick(&KINDS),
    },
    queries: kinds![
        "user", |rng, _| { let user = rng.below(420) as u32; }
            Salted::scan().user(user) => |v| v.user == user;
        "user.ts_range", |rng, _| {
            let user = rng.below(420) as u32;
            let ts = rng.range(|r| r.below(22_000) as i64 - 11_000);
        } Salted::scan().user(user).ts_range(ts) => |v| v.user == user && in_range(&v.ts, &ts);
        "user_in", |rng, _| {
            let users: Vec<u32> = (0..rng.below(6)).map(|_| rng.below(420) as u32).collect();
        } Salted::scan().user_in(users.clone()) => |v| users.contains(&v.user);
        "user_range", |rng, _| { let users = rng.range(|r| r.below(420) as u32); }
            Salted::scan().user_range(users) => |v| in_range(&v.user, &users);
        "point", |rng, rows| { let (r, kind) = (row(rng, rows), *rng.pick(&KINDS)); }
            Salted::scan().user(r.user).ts(r.ts).kind(kind)
            => |v| v.user == r.user && v.ts == r.ts && v.kind == kind;
        "kind_in", |rng, rows| { let (r, kinds) = (row(rng, rows), kinds(rng)); }
            Salted::scan().user(r.user).ts(r.ts).kind_in(kinds.clone())
            => |v| v.user == r.user && v.ts == r.ts && kinds.contains(&v.kind);
    ],
};

// ---------------------------------------------------------------- hash-prefixed

#[derive(RowKey, Debug, Clone)]
struct Hashed {
    #[rowkey(hash_prefix(len = 2))]
    device: u16,
    seq: u32,
}

const HASHED: Layout<Hashed> = Layout {
    name: "hashed",
    seed: 12,
    salted: false,
    exact: Some(Exact::Half),
    value: |rng| Hashed {
        device: rng.below(300) as u16,
        seq: rng.below(5_000) as u32,
    },
    queries: kinds![
        "device", |rng, _| { let device = rng.below(320) as u16; }
            Hashed::scan().device(device) => |v| v.device == device;
        "device.seq_range", |rng, _| {
            let (device, seq) = (rng.below(320) as u16, rng.range(|r| r.below(5_200) as u32));
        } Hashed::scan().device(device).seq_range(seq)
            => |v| v.device == device && in_range(&v.seq, &seq);
        "device_in", |rng, _| {
            let devices: Vec<u16> = (0..rng.below(5)).map(|_| rng.below(320) as u16).collect();
        } Hashed::scan().device_in(devices.clone()) => |v| devices.contains(&v.device);
        "device_range", |rng, _| {
            // An unbound hash source: the whole table, not exact; matches() filters.
            let devices = rng.range(|r| r.below(320) as u16);
            let plan = Hashed::scan().device_range(devices);
            assert!(!plan.is_exact() || devices == (Bound::Unbounded, Bound::Unbounded));
        } plan => |v| in_range(&v.device, &devices);
    ],
};

// ---------------------------------------------------------------- desc strings

#[derive(RowKey, Debug, Clone)]
struct Names {
    #[rowkey(desc)]
    region: String,
    #[rowkey(desc)]
    rank: u8,
    name: String,
}

const ALPHA: [char; 5] = ['a', 'b', '\0', 'ÿ', 'z'];

const NAMES: Layout<Names> = Layout {
    name: "desc strings",
    seed: 13,
    salted: false,
    exact: None,
    value: |rng| Names {
        region: rng.string(&ALPHA, 3),
        rank: rng.below(4) as u8,
        name: rng.string(&ALPHA, 4),
    },
    queries: kinds![
        "region", |rng, _| { let region = rng.string(&ALPHA, 3); }
            Names::scan().region(&region) => |v| v.region == region;
        "region_prefix", |rng, _| { let p = rng.string(&ALPHA, 2); }
            Names::scan().region_prefix(&p) => |v| v.region.starts_with(&p);
        "region_range", |rng, _| { let regions = rng.range(|r| r.string(&ALPHA, 3)); }
            Names::scan().region_range(strs(&regions)) => |v| in_range(&v.region, &regions);
        "name_prefix", |rng, _| {
            let (region, rank) = (rng.string(&ALPHA, 3), rng.below(5) as u8);
            let p = rng.string(&ALPHA, 2);
        } Names::scan().region(&region).rank(rank).name_prefix(&p)
            => |v| v.region == region && v.rank == rank && v.name.starts_with(&p);
        "region_in.rank_range", |rng, _| {
            let regions: Vec<String> = (0..rng.below(4)).map(|_| rng.string(&ALPHA, 2)).collect();
            let ranks = rng.range(|r| r.below(5) as u8);
        } Names::scan().region_in(&regions).rank_range(ranks)
            => |v| regions.contains(&v.region) && in_range(&v.rank, &ranks);
        "name_range", |rng, _| {
            let (region, rank) = (rng.string(&ALPHA, 3), rng.below(5) as u8);
            let names = rng.range(|r| r.string(&ALPHA, 4));
        } Names::scan().region(&region).rank(rank).name_range(strs(&names))
            => |v| v.region == region && v.rank == rank && in_range(&v.name, &names);
    ],
};

// ---------------------------------------------------------------- width, Option, nested

#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Inner {
    x: u8,
    s: String,
}

#[derive(RowKey, Debug, Clone)]
struct Mixed {
    #[rowkey(width = 2)]
    shard: u32,
    tag: Option<u8>,
    inner: Inner,
    #[rowkey(width = 3, desc)]
    code: Vec<u8>,
    score: f64,
}

fn code(rng: &mut Rng) -> Vec<u8> {
    let mut c: Vec<u8> = (0..rng.below(4))
        .map(|_| *rng.pick(&[0u8, 1, 0xFF, b'a']))
        .collect();
    while c.last() == Some(&0) {
        c.pop();
    }
    c
}

fn inner(rng: &mut Rng) -> Inner {
    let x = rng.below(3) as u8;
    let s = rng.string(&ALPHA, 2);
    Inner { x, s }
}

fn score(rng: &mut Rng) -> f64 {
    (rng.below(200) as f64 - 100.0) / 4.0
}

/// What Mixed queries bind first: a shard and a tag, each one past the stored values too, and an
/// inner key.
fn lead(rng: &mut Rng) -> (u32, Option<u8>, Inner) {
    let shard = rng.below(7) as u32;
    let tag = (rng.below(4) != 0).then(|| rng.below(5) as u8);
    (shard, tag, inner(rng))
}

const MIXED: Layout<Mixed> = Layout {
    name: "width, Option, nested",
    seed: 14,
    salted: false,
    exact: None,
    value: |rng| Mixed {
        shard: rng.below(6) as u32,
        tag: (rng.below(4) != 0).then(|| rng.below(4) as u8),
        inner: inner(rng),
        code: code(rng),
        score: score(rng),
    },
    queries: kinds![
        "shard.tag", |rng, _| { let (shard, tag, _) = lead(rng); }
            Mixed::scan().shard(shard).tag(tag) => |v| v.shard == shard && v.tag == tag;
        "tag_range", |rng, _| {
            let (shard, _, _) = lead(rng);
            let tags = rng.range(|r| (r.below(4) != 0).then(|| r.below(5) as u8));
        } Mixed::scan().shard(shard).tag_range(tags)
            => |v| v.shard == shard && in_range(&v.tag, &tags);
        "inner_range", |rng, _| { let ((shard, tag, _), inners) = (lead(rng), rng.range(inner)); }
            Mixed::scan().shard(shard).tag(tag).inner_range(inners.clone())
            => |v| v.shard == shard && v.tag == tag && in_range(&v.inner, &inners);
        "code_prefix", |rng, _| {
            let ((shard, tag, inner), mut p) = (lead(rng), code(rng));
            if rng.below(3) == 0 {
                p.push(0); // a prefix ending in the pad byte
            }
        } Mixed::scan().shard(shard).tag(tag).inner(inner.clone()).code_prefix(&p)
            => |v| v.shard == shard && v.tag == tag && v.inner == inner && v.code.starts_with(&p);
        "score_range", |rng, _| {
            let ((shard, tag, inner), c, scores) = (lead(rng), code(rng), rng.range(score));
        } Mixed::scan().shard(shard).tag(tag).inner(inner.clone()).code(&c).score_range(scores)
            => |v| v.shard == shard && v.tag == tag && v.inner == inner && v.code == c
                && in_range(&v.score, &scores);
    ],
};

// ---------------------------------------------------------------- whole-key salt

#[derive(RowKey, Debug, Clone)]
#[rowkey(salt(buckets = 4, hash = "java"))]
struct WholeSalted {
    a: u8,
    b: u16,
    c: String,
}

const WHOLE_SALTED: Layout<WholeSalted> = Layout {
    name: "whole-key salted",
    seed: 15,
    salted: true,
    exact: None,
    value: |rng| WholeSalted {
        a: rng.below(50) as u8,
        b: rng.below(300) as u16,
        c: rng.string(&ALPHA, 3),
    },
    queries: kinds![
        "a", |rng, _| { let a = rng.below(52) as u8; } WholeSalted::scan().a(a) => |v| v.a == a;
        "point", |rng, rows| {
            let r = row(rng, rows);
            let plan = WholeSalted::scan().a(r.a).b(r.b).c(&r.c);
            assert_eq!(plan.ranges().len(), 1, "a point lookup on a whole-key salt is one range");
        } plan => |v| v.a == r.a && v.b == r.b && v.c == r.c;
        "a.b_range", |rng, _| {
            let (a, bs) = (rng.below(52) as u8, rng.range(|r| r.below(320) as u16));
        } WholeSalted::scan().a(a).b_range(bs) => |v| v.a == a && in_range(&v.b, &bs);
    ],
};

// ---------------------------------------------------------------- fixed, no prefix

/// A fixed layout without a prefix: its builder plans in the fixed-layout lane. Values crowd the
/// edges (00 and FF bytes, signed MIN and MAX, the top of a 2-byte width), where stop rows break.
#[derive(RowKey, Debug, Clone)]
struct Meter {
    site: u8,
    #[rowkey(desc)]
    ts: i32,
    #[rowkey(width = 2)]
    channel: u32,
    kind: Kind,
}

const SITES: [u8; 6] = [0, 1, 2, 127, 254, 255];

fn edgy_i32(rng: &mut Rng) -> i32 {
    const EDGES: [i32; 6] = [i32::MIN, i32::MIN + 1, -1, 0, i32::MAX - 1, i32::MAX];
    if rng.below(4) == 0 {
        *rng.pick(&EDGES)
    } else {
        rng.below(2_000) as i32 - 1_000
    }
}

fn edgy_channel(rng: &mut Rng) -> u32 {
    const EDGES: [u32; 4] = [0, 0xFF, 0xFFFE, 0xFFFF];
    if rng.below(4) == 0 {
        *rng.pick(&EDGES)
    } else {
        rng.below(600) as u32
    }
}

/// A channel bound, sometimes past the 2-byte width (70,000 and u32::MAX).
fn wide_channel(rng: &mut Rng) -> u32 {
    if rng.below(5) == 0 {
        *rng.pick(&[70_000, u32::MAX])
    } else {
        edgy_channel(rng)
    }
}

const FIXED: Layout<Meter> = Layout {
    name: "fixed",
    seed: 17,
    salted: false,
    exact: Some(Exact::All),
    value: |rng| Meter {
        site: *rng.pick(&SITES),
        ts: edgy_i32(rng),
        channel: edgy_channel(rng),
        kind: *rng.pick(&KINDS),
    },
    queries: kinds![
        "site", |rng, _| { let site = *rng.pick(&SITES); }
            Meter::scan().site(site) => |v| v.site == site;
        "site.ts_range", |rng, _| { let (site, ts) = (*rng.pick(&SITES), rng.range(edgy_i32)); }
            Meter::scan().site(site).ts_range(ts) => |v| v.site == site && in_range(&v.ts, &ts);
        "site.ts.channel_range", |rng, rows| {
            let (r, ch) = (row(rng, rows), rng.range(wide_channel));
        } Meter::scan().site(r.site).ts(r.ts).channel_range(ch)
            => |v| v.site == r.site && v.ts == r.ts && in_range(&v.channel, &ch);
        "site_in.ts_range", |rng, _| {
            let sites: Vec<u8> = (0..rng.below(4)).map(|_| *rng.pick(&SITES)).collect();
            let ts = rng.range(edgy_i32);
        } Meter::scan().site_in(sites.clone()).ts_range(ts)
            => |v| sites.contains(&v.site) && in_range(&v.ts, &ts);
        "point kind_in", |rng, rows| { let (r, kinds) = (row(rng, rows), kinds(rng)); }
            Meter::scan().site(r.site).ts(r.ts).channel(r.channel).kind_in(kinds.clone())
            => |v| v.site == r.site && v.ts == r.ts && v.channel == r.channel
                && kinds.contains(&v.kind);
    ],
};

// ---------------------------------------------------------------- text layouts

#[derive(RowKey, Debug, Clone)]
#[rowkey(text, delimiter = ":")]
struct TextSalted {
    #[rowkey(salt(buckets = 10))]
    user: u32,
    region: String,
    #[rowkey(desc)]
    ts: u64,
    page: String,
}

/// Characters on both sides of the delimiter `:` (0x3A), so segment bytes do not sort as content.
const TEXT_ALPHA: [char; 6] = ['0', '9', '-', 'a', 'z', 'é'];

const TEXT_SALTED: Layout<TextSalted> = Layout {
    name: "salted text",
    seed: 16,
    salted: true,
    exact: None,
    value: |rng| TextSalted {
        user: rng.below(200) as u32,
        region: rng.string(&TEXT_ALPHA, 2),
        ts: rng.below(1_000),
        page: rng.string(&TEXT_ALPHA, 3),
    },
    queries: kinds![
        "user", |rng, _| { let user = rng.below(210) as u32; }
            TextSalted::scan().user(user) => |v| v.user == user;
        "user_range", |rng, _| { let users = rng.range(|r| r.below(210) as u32); }
            TextSalted::scan().user_range(users) => |v| in_range(&v.user, &users);
        "region_range", |rng, _| {
            let (user, regions) = (rng.below(210) as u32, rng.range(|r| r.string(&TEXT_ALPHA, 2)));
            let plan = TextSalted::scan().user(user).region_range(strs(&regions));
            assert!(!plan.is_exact(), "a range on a text segment that others follow is filtered");
        } plan => |v| v.user == user && in_range(&v.region, &regions);
        "region_prefix", |rng, _| {
            let (user, p) = (rng.below(210) as u32, rng.string(&TEXT_ALPHA, 1));
        } TextSalted::scan().user(user).region_prefix(&p)
            => |v| v.user == user && v.region.starts_with(&p);
        "ts_range", |rng, _| {
            let (user, region) = (rng.below(210) as u32, rng.string(&TEXT_ALPHA, 2));
            let ts = rng.range(|r| r.below(1_100));
        } TextSalted::scan().user(user).region(&region).ts_range(ts)
            => |v| v.user == user && v.region == region && in_range(&v.ts, &ts);
        "page_range", |rng, _| {
            let users: Vec<u32> = (0..rng.below(4)).map(|_| rng.below(210) as u32).collect();
            let (region, ts) = (rng.string(&TEXT_ALPHA, 2), rng.below(1_000));
            let pages = rng.range(|r| r.string(&TEXT_ALPHA, 3));
        } TextSalted::scan().user_in(users.clone()).region(&region).ts(ts).page_range(strs(&pages))
            => |v| users.contains(&v.user) && v.region == region && v.ts == ts
                && in_range(&v.page, &pages);
    ],
};

#[derive(RowKey, Debug, Clone)]
#[rowkey(text, delimiter = "|")]
struct TextHashed {
    #[rowkey(hash_prefix(len = 4))]
    device: String,
    #[rowkey(width = 6)]
    seq: u32,
}

const TEXT_HASHED: Layout<TextHashed> = Layout {
    name: "hashed text",
    seed: 17,
    salted: false,
    exact: None,
    value: |rng| TextHashed {
        device: rng.string(&TEXT_ALPHA, 3),
        seq: rng.below(3_000) as u32,
    },
    queries: kinds![
        "device", |rng, _| { let device = rng.string(&TEXT_ALPHA, 3); }
            TextHashed::scan().device(&device) => |v| v.device == device;
        "seq_range", |rng, _| {
            let (device, seq) = (rng.string(&TEXT_ALPHA, 3), rng.range(|r| r.below(3_100) as u32));
        } TextHashed::scan().device(&device).seq_range(seq)
            => |v| v.device == device && in_range(&v.seq, &seq);
        "device_prefix", |rng, _| { let p = rng.string(&TEXT_ALPHA, 1); }
            TextHashed::scan().device_prefix(&p) => |v| v.device.starts_with(&p);
    ],
};

// ---------------------------------------------------------------- hash-prefixed behind a field

// The hash source comes after a field: a query on the field alone reads the whole table (the
// hash is unknown), and the field's bytes sit right behind the prefix: the plan's pattern.
#[derive(RowKey, Debug, Clone)]
struct Series {
    metric: u16,
    #[rowkey(hash_prefix(len = 2))]
    host: u32,
    ts: u32,
}

const SERIES: Layout<Series> = Layout {
    name: "hashed behind a field",
    seed: 18,
    salted: false,
    exact: None,
    value: |rng| Series {
        metric: rng.below(40) as u16,
        host: rng.below(200) as u32,
        ts: rng.below(1_000) as u32,
    },
    queries: kinds![
        "metric", |rng, _| { let metric = rng.below(42) as u16; }
            Series::scan().metric(metric) => |v| v.metric == metric;
        "metric_in", |rng, _| {
            let metrics: Vec<u16> = (0..rng.below(5)).map(|_| rng.below(42) as u16).collect();
        } Series::scan().metric_in(metrics.clone()) => |v| metrics.contains(&v.metric);
        "metric.host_range", |rng, _| {
            let (metric, hosts) = (rng.below(42) as u16, rng.range(|r| r.below(210) as u32));
        } Series::scan().metric(metric).host_range(hosts)
            => |v| v.metric == metric && in_range(&v.host, &hosts);
        "metric.host.ts_range", |rng, _| {
            let (metric, host) = (rng.below(42) as u16, rng.below(210) as u32);
            let ts = rng.range(|r| r.below(1_100) as u32);
        } Series::scan().metric(metric).host(host).ts_range(ts)
            => |v| v.metric == metric && v.host == host && in_range(&v.ts, &ts);
    ],
};

#[derive(RowKey, Debug, Clone)]
#[rowkey(text, delimiter = "|")]
struct TextSeries {
    metric: String,
    #[rowkey(hash_prefix(len = 4))]
    host: String,
    #[rowkey(width = 4)]
    ts: u32,
}

const TEXT_SERIES: Layout<TextSeries> = Layout {
    name: "hashed behind a field, text",
    seed: 19,
    salted: false,
    exact: None,
    value: |rng| TextSeries {
        metric: rng.string(&TEXT_ALPHA, 2),
        host: rng.string(&TEXT_ALPHA, 2),
        ts: rng.below(1_000) as u32,
    },
    queries: kinds![
        "metric", |rng, _| { let metric = rng.string(&TEXT_ALPHA, 2); }
            TextSeries::scan().metric(&metric) => |v| v.metric == metric;
        "metric_in", |rng, _| {
            let metrics: Vec<String> = (0..rng.below(4)).map(|_| rng.string(&TEXT_ALPHA, 2)).collect();
        } TextSeries::scan().metric_in(metrics.iter().map(String::as_str))
            => |v| metrics.contains(&v.metric);
        "metric.host_prefix", |rng, _| {
            let (metric, p) = (rng.string(&TEXT_ALPHA, 2), rng.string(&TEXT_ALPHA, 1));
        } TextSeries::scan().metric(&metric).host_prefix(&p)
            => |v| v.metric == metric && v.host.starts_with(&p);
        "metric.host.ts_range", |rng, _| {
            let (metric, host) = (rng.string(&TEXT_ALPHA, 2), rng.string(&TEXT_ALPHA, 2));
            let ts = rng.range(|r| r.below(1_100) as u32);
        } TextSeries::scan().metric(&metric).host(&host).ts_range(ts)
            => |v| v.metric == metric && v.host == host && in_range(&v.ts, &ts);
    ],
};
