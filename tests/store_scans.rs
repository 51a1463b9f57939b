//! Scan plans against a real ordered store. 100,000 keys of each layout (salted, hashed, desc
//! strings, width/Option/nested, whole-key salt, fixed without a prefix, salted and hashed text)
//! go into an in-memory redb database; 1,000 random scans per layout run through `ranges()` as redb
//! range scans, and are compared with a brute-force filter over the decoded values (an independent
//! predicate written in plain Rust): no expected row is ever missing, no extra row comes back when
//! the plan `is_exact()`, `matches()` agrees with the predicate, and salted results merged per
//! bucket come out in unsalted order.

use std::collections::BTreeSet;
use std::ops::Bound;

use redb::backends::InMemoryBackend;
use redb::{Database, TableDefinition};
use rowkey::merge::merge_by_key;
use rowkey::{DecodeKey, KeyRange, RowKey, Scan};

mod common;
use common::{in_bounds, Rng};

const TABLE: TableDefinition<&[u8], ()> = TableDefinition::new("rows");
const KEYS: usize = 100_000;
const SCANS: usize = 1_000;

/// A loaded table: the store, and every key with its decoded value.
struct Loaded<K> {
    db: Database,
    rows: Vec<(Vec<u8>, K)>,
}

fn load<K: RowKey + for<'k> DecodeKey<'k>>(values: impl Iterator<Item = K>) -> Loaded<K> {
    let db = Database::builder()
        .create_with_backend(InMemoryBackend::new())
        .expect("in-memory redb");
    let mut rows: Vec<(Vec<u8>, K)> = values.map(|v| (v.to_vec().expect("encode"), v)).collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    rows.dedup_by(|a, b| a.0 == b.0);
    let tx = db.begin_write().unwrap();
    {
        let mut table = tx.open_table(TABLE).unwrap();
        for (k, _) in &rows {
            table.insert(k.as_slice(), ()).unwrap();
        }
    }
    tx.commit().unwrap();
    for (k, v) in rows.iter().take(100) {
        assert_eq!(&K::decode(k).unwrap().to_vec().unwrap(), k);
        let _ = v;
    }
    Loaded { db, rows }
}

/// The keys redb returns for each range, range by range.
fn scan_store(db: &Database, ranges: &[KeyRange]) -> Vec<Vec<Vec<u8>>> {
    let tx = db.begin_read().unwrap();
    let table = tx.open_table(TABLE).unwrap();
    ranges
        .iter()
        .map(|r| {
            let start = Bound::Included(r.start());
            let stop = if r.stop().is_empty() {
                Bound::Unbounded
            } else {
                Bound::Excluded(r.stop())
            };
            table
                .range::<&[u8]>((start, stop))
                .unwrap()
                .map(|e| e.unwrap().0.value().to_vec())
                .collect()
        })
        .collect()
}

#[derive(Default, Debug)]
struct Stats {
    scans: usize,
    exact: usize,
    expected_rows: usize,
    ranges: usize,
}

/// Runs one plan against the store and checks it against `pred` over the decoded values.
fn check<K>(
    t: &Loaded<K>,
    plan: &Scan<K>,
    pred: impl Fn(&K) -> bool,
    salted: bool,
    stats: &mut Stats,
    what: &str,
) {
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    for w in ranges.windows(2) {
        assert!(
            !w[0].stop().is_empty() && w[0].stop() <= w[1].start(),
            "{what}: ranges overlap or are unsorted: {:?} then {:?}",
            w[0],
            w[1]
        );
        if !salted {
            assert!(
                w[0].stop() < w[1].start(),
                "{what}: adjacent ranges not merged: {:?} {:?}",
                w[0],
                w[1]
            );
        }
    }
    if salted {
        for r in &ranges {
            let bucket = r.start().first().copied();
            let stop_bucket_ok = r.stop().is_empty()
                || r.stop().first().copied() == bucket
                || r.stop() == [bucket.unwrap_or(0).wrapping_add(1)];
            assert!(stop_bucket_ok, "{what}: a range spans salt buckets: {r:?}");
        }
    }
    let per_range = scan_store(&t.db, &ranges);
    let returned: Vec<&Vec<u8>> = per_range.iter().flatten().collect();
    let got: BTreeSet<&[u8]> = returned
        .iter()
        .map(|k| k.as_slice())
        .filter(|k| plan.is_exact() || plan.matches(k))
        .collect();
    let expected: BTreeSet<&[u8]> = t
        .rows
        .iter()
        .filter(|(_, v)| pred(v))
        .map(|(k, _)| k.as_slice())
        .collect();
    let missing: Vec<_> = expected.difference(&got).take(3).collect();
    assert!(
        missing.is_empty(),
        "{what}: missing rows {missing:02X?} with ranges {ranges:?}"
    );
    if plan.is_exact() {
        assert_eq!(returned.len(), got.len(), "{what}: duplicate rows");
        let extra: Vec<_> = got.difference(&expected).take(3).collect();
        assert!(
            extra.is_empty(),
            "{what}: extra rows {extra:02X?} with ranges {ranges:?}"
        );
        stats.exact += 1;
    }
    // matches() is exact for every row, inside the ranges or not.
    for (k, v) in t
        .rows
        .iter()
        .step_by(97)
        .chain(per_range.iter().flatten().take(50).filter_map(|k| {
            t.rows
                .binary_search_by(|(rk, _)| rk.as_slice().cmp(k))
                .ok()
                .map(|i| &t.rows[i])
        }))
    {
        assert_eq!(
            plan.matches(k),
            pred(v),
            "{what}: matches({k:02X?}) disagrees with the predicate"
        );
    }
    if salted && ranges.len() > 1 {
        // Each bucket's rows come back sorted; merged by the key after the salt byte they are in
        // the order of the unsalted key.
        let merged: Vec<Vec<u8>> = merge_by_key(
            per_range.iter().map(|keys| keys.iter().cloned()).collect(),
            1,
            |k: &Vec<u8>| k.as_slice(),
        )
        .collect();
        assert!(
            merged.windows(2).all(|w| w[0][1..] <= w[1][1..]),
            "{what}: merge out of order"
        );
        assert_eq!(merged.len(), returned.len());
    }
    stats.scans += 1;
    stats.expected_rows += expected.len();
    stats.ranges += ranges.len();
}

// ---------------------------------------------------------------- salted

#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    View,
    Click,
    Buy,
}

const KINDS: [Kind; 3] = [Kind::View, Kind::Click, Kind::Buy];

#[derive(RowKey, Debug, Clone)]
struct Salted {
    #[rowkey(salt(buckets = 8))]
    user: u32,
    #[rowkey(desc)]
    ts: i64,
    kind: Kind,
}

#[test]
fn salted_layout_scans_match_brute_force() {
    let mut rng = Rng(11);
    let t = load((0..KEYS).map(|_| Salted {
        user: rng.below(400) as u32,
        ts: rng.below(20_000) as i64 - 10_000,
        kind: *rng.pick(&KINDS),
    }));
    let mut stats = Stats::default();
    for i in 0..SCANS {
        let user = rng.below(420) as u32;
        let (lo, hi) = (
            {
                let v = rng.below(22_000) as i64 - 11_000;
                rng.bound(v)
            },
            {
                let v = rng.below(22_000) as i64 - 11_000;
                rng.bound(v)
            },
        );
        match i % 6 {
            0 => check(
                &t,
                &Salted::scan().user(user),
                |v| v.user == user,
                true,
                &mut stats,
                "user",
            ),
            1 => check(
                &t,
                &Salted::scan().user(user).ts_range((lo, hi)),
                |v| v.user == user && in_bounds(&v.ts, &lo, &hi),
                true,
                &mut stats,
                "user.ts_range",
            ),
            2 => {
                let users: Vec<u32> = (0..rng.below(6)).map(|_| rng.below(420) as u32).collect();
                check(
                    &t,
                    &Salted::scan().user_in(users.clone()),
                    |v| users.contains(&v.user),
                    true,
                    &mut stats,
                    "user_in",
                )
            }
            3 => {
                let (ulo, uhi) = (
                    {
                        let v = rng.below(420) as u32;
                        rng.bound(v)
                    },
                    {
                        let v = rng.below(420) as u32;
                        rng.bound(v)
                    },
                );
                check(
                    &t,
                    &Salted::scan().user_range((ulo, uhi)),
                    |v| in_bounds(&v.user, &ulo, &uhi),
                    true,
                    &mut stats,
                    "user_range",
                )
            }
            4 => {
                let ts = t.rows[rng.below(t.rows.len() as u64) as usize].1.ts;
                let kind = *rng.pick(&KINDS);
                check(
                    &t,
                    &Salted::scan().user(user).ts(ts).kind(kind),
                    |v| v.user == user && v.ts == ts && v.kind == kind,
                    true,
                    &mut stats,
                    "point",
                )
            }
            _ => {
                let kinds: Vec<Kind> = (0..rng.below(3)).map(|_| *rng.pick(&KINDS)).collect();
                check(
                    &t,
                    &Salted::scan()
                        .user(user)
                        .ts(lo_value(&lo))
                        .kind_in(kinds.clone()),
                    |v| v.user == user && v.ts == lo_value(&lo) && kinds.contains(&v.kind),
                    true,
                    &mut stats,
                    "kind_in",
                )
            }
        }
    }
    assert!(
        stats.expected_rows > SCANS,
        "scans hit too few rows: {stats:?}"
    );
    println!("salted: {stats:?}");
}

fn lo_value(b: &Bound<i64>) -> i64 {
    match b {
        Bound::Included(v) | Bound::Excluded(v) => *v,
        Bound::Unbounded => 0,
    }
}

// ---------------------------------------------------------------- hash-prefixed

#[derive(RowKey, Debug, Clone)]
struct Hashed {
    #[rowkey(hash_prefix(len = 2))]
    device: u16,
    seq: u32,
}

#[test]
fn hashed_layout_scans_match_brute_force() {
    let mut rng = Rng(12);
    let t = load((0..KEYS).map(|_| Hashed {
        device: rng.below(300) as u16,
        seq: rng.below(5_000) as u32,
    }));
    let mut stats = Stats::default();
    for i in 0..SCANS {
        let device = rng.below(320) as u16;
        let (lo, hi) = (
            {
                let v = rng.below(5_200) as u32;
                rng.bound(v)
            },
            {
                let v = rng.below(5_200) as u32;
                rng.bound(v)
            },
        );
        match i % 4 {
            0 => check(
                &t,
                &Hashed::scan().device(device),
                |v| v.device == device,
                false,
                &mut stats,
                "device",
            ),
            1 => check(
                &t,
                &Hashed::scan().device(device).seq_range((lo, hi)),
                |v| v.device == device && in_bounds(&v.seq, &lo, &hi),
                false,
                &mut stats,
                "device.seq_range",
            ),
            2 => {
                let devices: Vec<u16> = (0..rng.below(5)).map(|_| rng.below(320) as u16).collect();
                check(
                    &t,
                    &Hashed::scan().device_in(devices.clone()),
                    |v| devices.contains(&v.device),
                    false,
                    &mut stats,
                    "device_in",
                )
            }
            _ => {
                // Unbound hash source: the whole table, not exact; matches() filters.
                let (dlo, dhi) = (
                    {
                        let v = rng.below(320) as u16;
                        rng.bound(v)
                    },
                    {
                        let v = rng.below(320) as u16;
                        rng.bound(v)
                    },
                );
                let plan = Hashed::scan().device_range((dlo, dhi));
                assert!(!plan.is_exact() || (dlo, dhi) == (Bound::Unbounded, Bound::Unbounded));
                check(
                    &t,
                    &plan,
                    |v| in_bounds(&v.device, &dlo, &dhi),
                    false,
                    &mut stats,
                    "device_range",
                )
            }
        }
    }
    assert!(stats.exact >= SCANS / 2, "{stats:?}");
    println!("hashed: {stats:?}");
}

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

#[test]
fn desc_string_layout_scans_match_brute_force() {
    let mut rng = Rng(13);
    let t = load((0..KEYS).map(|_| Names {
        region: rng.string(&ALPHA, 3),
        rank: rng.below(4) as u8,
        name: rng.string(&ALPHA, 4),
    }));
    let mut stats = Stats::default();
    for i in 0..SCANS {
        let region = rng.string(&ALPHA, 3);
        let p = rng.string(&ALPHA, 2);
        match i % 6 {
            0 => check(
                &t,
                &Names::scan().region(&region),
                |v| v.region == region,
                false,
                &mut stats,
                "region",
            ),
            1 => check(
                &t,
                &Names::scan().region_prefix(&p),
                |v| v.region.starts_with(&p),
                false,
                &mut stats,
                "region_prefix",
            ),
            2 => {
                let (a, b) = (rng.string(&ALPHA, 3), rng.string(&ALPHA, 3));
                let (lo, hi) = (rng.bound(a.as_str()), rng.bound(b.as_str()));
                check(
                    &t,
                    &Names::scan().region_range((lo, hi)),
                    |v| in_bounds(&v.region.as_str(), &lo, &hi),
                    false,
                    &mut stats,
                    "region_range",
                )
            }
            3 => {
                let rank = rng.below(5) as u8;
                check(
                    &t,
                    &Names::scan().region(&region).rank(rank).name_prefix(&p),
                    |v| v.region == region && v.rank == rank && v.name.starts_with(&p),
                    false,
                    &mut stats,
                    "name_prefix",
                )
            }
            4 => {
                let regions: Vec<String> =
                    (0..rng.below(4)).map(|_| rng.string(&ALPHA, 2)).collect();
                let (lo, hi) = (
                    {
                        let v = rng.below(5) as u8;
                        rng.bound(v)
                    },
                    {
                        let v = rng.below(5) as u8;
                        rng.bound(v)
                    },
                );
                check(
                    &t,
                    &Names::scan().region_in(&regions).rank_range((lo, hi)),
                    |v| regions.contains(&v.region) && in_bounds(&v.rank, &lo, &hi),
                    false,
                    &mut stats,
                    "region_in.rank_range",
                )
            }
            _ => {
                let rank = rng.below(5) as u8;
                let (a, b) = (rng.string(&ALPHA, 4), rng.string(&ALPHA, 4));
                let (lo, hi) = (rng.bound(a.as_str()), rng.bound(b.as_str()));
                check(
                    &t,
                    &Names::scan()
                        .region(&region)
                        .rank(rank)
                        .name_range((lo, hi)),
                    |v| {
                        v.region == region
                            && v.rank == rank
                            && in_bounds(&v.name.as_str(), &lo, &hi)
                    },
                    false,
                    &mut stats,
                    "name_range",
                )
            }
        }
    }
    assert!(stats.expected_rows > SCANS, "{stats:?}");
    println!("desc strings: {stats:?}");
}

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

#[test]
fn width_option_nested_layout_scans_match_brute_force() {
    let mut rng = Rng(14);
    let t = load((0..KEYS).map(|_| Mixed {
        shard: rng.below(6) as u32,
        tag: (rng.below(4) != 0).then(|| rng.below(4) as u8),
        inner: Inner {
            x: rng.below(3) as u8,
            s: rng.string(&ALPHA, 2),
        },
        code: code(&mut rng),
        score: (rng.below(200) as f64 - 100.0) / 4.0,
    }));
    let mut stats = Stats::default();
    for i in 0..SCANS {
        let shard = rng.below(7) as u32;
        let tag = (rng.below(4) != 0).then(|| rng.below(5) as u8);
        let inner = Inner {
            x: rng.below(3) as u8,
            s: rng.string(&ALPHA, 2),
        };
        match i % 5 {
            0 => check(
                &t,
                &Mixed::scan().shard(shard).tag(tag),
                |v| v.shard == shard && v.tag == tag,
                false,
                &mut stats,
                "shard.tag",
            ),
            1 => {
                let (lo, hi) = (rng.bound(tag), {
                    let v = (rng.below(4) != 0).then(|| rng.below(5) as u8);
                    rng.bound(v)
                });
                check(
                    &t,
                    &Mixed::scan().shard(shard).tag_range((lo, hi)),
                    |v| v.shard == shard && in_bounds(&v.tag, &lo, &hi),
                    false,
                    &mut stats,
                    "tag_range",
                )
            }
            2 => {
                let other = Inner {
                    x: rng.below(3) as u8,
                    s: rng.string(&ALPHA, 2),
                };
                let (lo, hi) = (rng.bound(inner.clone()), rng.bound(other));
                check(
                    &t,
                    &Mixed::scan()
                        .shard(shard)
                        .tag(tag)
                        .inner_range((lo.clone(), hi.clone())),
                    |v| v.shard == shard && v.tag == tag && in_bounds(&v.inner, &lo, &hi),
                    false,
                    &mut stats,
                    "inner_range",
                )
            }
            3 => {
                let p = code(&mut rng);
                let mut p = p;
                if rng.below(3) == 0 {
                    p.push(0); // a prefix ending in the pad byte
                }
                check(
                    &t,
                    &Mixed::scan()
                        .shard(shard)
                        .tag(tag)
                        .inner(inner.clone())
                        .code_prefix(&p),
                    |v| {
                        v.shard == shard
                            && v.tag == tag
                            && v.inner == inner
                            && v.code.starts_with(&p)
                    },
                    false,
                    &mut stats,
                    "code_prefix",
                )
            }
            _ => {
                let c = code(&mut rng);
                let (lo, hi) = (
                    {
                        let v = (rng.below(200) as f64 - 100.0) / 4.0;
                        rng.bound(v)
                    },
                    {
                        let v = (rng.below(200) as f64 - 100.0) / 4.0;
                        rng.bound(v)
                    },
                );
                check(
                    &t,
                    &Mixed::scan()
                        .shard(shard)
                        .tag(tag)
                        .inner(inner.clone())
                        .code(&c)
                        .score_range((lo, hi)),
                    |v| {
                        v.shard == shard
                            && v.tag == tag
                            && v.inner == inner
                            && v.code == c
                            && in_bounds(&v.score, &lo, &hi)
                    },
                    false,
                    &mut stats,
                    "score_range",
                )
            }
        }
    }
    assert!(stats.expected_rows > SCANS, "{stats:?}");
    println!("mixed: {stats:?}");
}

// ---------------------------------------------------------------- whole-key salt

#[derive(RowKey, Debug, Clone)]
#[rowkey(salt(buckets = 4, hash = "java"))]
struct WholeSalted {
    a: u8,
    b: u16,
    c: String,
}

#[test]
fn whole_key_salted_layout_scans_match_brute_force() {
    let mut rng = Rng(15);
    let t = load((0..KEYS).map(|_| WholeSalted {
        a: rng.below(50) as u8,
        b: rng.below(300) as u16,
        c: rng.string(&ALPHA, 3),
    }));
    let mut stats = Stats::default();
    for i in 0..SCANS {
        let a = rng.below(52) as u8;
        match i % 3 {
            0 => check(
                &t,
                &WholeSalted::scan().a(a),
                |v| v.a == a,
                true,
                &mut stats,
                "a",
            ),
            1 => {
                let row = &t.rows[rng.below(t.rows.len() as u64) as usize].1;
                let plan = WholeSalted::scan().a(row.a).b(row.b).c(&row.c);
                assert_eq!(
                    plan.ranges().len(),
                    1,
                    "a point lookup on a whole-key salt is one range"
                );
                check(
                    &t,
                    &plan,
                    |v| v.a == row.a && v.b == row.b && v.c == row.c,
                    true,
                    &mut stats,
                    "point",
                )
            }
            _ => {
                let (lo, hi) = (
                    {
                        let v = rng.below(320) as u16;
                        rng.bound(v)
                    },
                    {
                        let v = rng.below(320) as u16;
                        rng.bound(v)
                    },
                );
                check(
                    &t,
                    &WholeSalted::scan().a(a).b_range((lo, hi)),
                    |v| v.a == a && in_bounds(&v.b, &lo, &hi),
                    true,
                    &mut stats,
                    "a.b_range",
                )
            }
        }
    }
    println!("whole-key salted: {stats:?}");
}

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

#[test]
fn fixed_layout_scans_match_brute_force() {
    const SITES: [u8; 6] = [0, 1, 2, 127, 254, 255];
    let mut rng = Rng(17);
    let t = load((0..KEYS).map(|_| Meter {
        site: *rng.pick(&SITES),
        ts: edgy_i32(&mut rng),
        channel: edgy_channel(&mut rng),
        kind: *rng.pick(&KINDS),
    }));
    let mut stats = Stats::default();
    for i in 0..SCANS {
        let site = *rng.pick(&SITES);
        let ts = {
            let v = edgy_i32(&mut rng);
            (rng.bound(v), {
                let w = edgy_i32(&mut rng);
                rng.bound(w)
            })
        };
        // Channel bounds also go past the 2-byte width (70,000 and u32::MAX).
        let channel = |rng: &mut Rng| {
            let v = if rng.below(5) == 0 {
                *rng.pick(&[70_000, u32::MAX])
            } else {
                edgy_channel(rng)
            };
            rng.bound(v)
        };
        match i % 5 {
            0 => check(
                &t,
                &Meter::scan().site(site).into(),
                |v| v.site == site,
                false,
                &mut stats,
                "site",
            ),
            1 => check(
                &t,
                &Meter::scan().site(site).ts_range(ts).into(),
                |v| v.site == site && in_bounds(&v.ts, &ts.0, &ts.1),
                false,
                &mut stats,
                "site.ts_range",
            ),
            2 => {
                let row = t.rows[rng.below(t.rows.len() as u64) as usize].1.clone();
                let ch = (channel(&mut rng), channel(&mut rng));
                check(
                    &t,
                    &Meter::scan()
                        .site(row.site)
                        .ts(row.ts)
                        .channel_range(ch)
                        .into(),
                    |v| v.site == row.site && v.ts == row.ts && in_bounds(&v.channel, &ch.0, &ch.1),
                    false,
                    &mut stats,
                    "site.ts.channel_range",
                )
            }
            3 => {
                let sites: Vec<u8> = (0..rng.below(4)).map(|_| *rng.pick(&SITES)).collect();
                check(
                    &t,
                    &Meter::scan().site_in(sites.clone()).ts_range(ts).into(),
                    |v| sites.contains(&v.site) && in_bounds(&v.ts, &ts.0, &ts.1),
                    false,
                    &mut stats,
                    "site_in.ts_range",
                )
            }
            _ => {
                let row = t.rows[rng.below(t.rows.len() as u64) as usize].1.clone();
                let kinds: Vec<Kind> = (0..rng.below(3)).map(|_| *rng.pick(&KINDS)).collect();
                check(
                    &t,
                    &Meter::scan()
                        .site(row.site)
                        .ts(row.ts)
                        .channel(row.channel)
                        .kind_in(kinds.clone()),
                    |v| {
                        v.site == row.site
                            && v.ts == row.ts
                            && v.channel == row.channel
                            && kinds.contains(&v.kind)
                    },
                    false,
                    &mut stats,
                    "point kind_in",
                )
            }
        }
    }
    assert_eq!(stats.exact, stats.scans, "fixed-layout plans are exact");
    assert!(
        stats.expected_rows > SCANS,
        "scans hit too few rows: {stats:?}"
    );
    println!("fixed: {stats:?}");
}

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

#[test]
fn salted_text_layout_scans_match_brute_force() {
    let mut rng = Rng(16);
    let t = load((0..KEYS).map(|_| TextSalted {
        user: rng.below(200) as u32,
        region: rng.string(&TEXT_ALPHA, 2),
        ts: rng.below(1_000),
        page: rng.string(&TEXT_ALPHA, 3),
    }));
    let mut stats = Stats::default();
    for i in 0..SCANS {
        let user = rng.below(210) as u32;
        let region = rng.string(&TEXT_ALPHA, 2);
        match i % 6 {
            0 => check(
                &t,
                &TextSalted::scan().user(user),
                |v| v.user == user,
                true,
                &mut stats,
                "text user",
            ),
            1 => {
                let (lo, hi) = (
                    {
                        let v = rng.below(210) as u32;
                        rng.bound(v)
                    },
                    {
                        let v = rng.below(210) as u32;
                        rng.bound(v)
                    },
                );
                check(
                    &t,
                    &TextSalted::scan().user_range((lo, hi)),
                    |v| in_bounds(&v.user, &lo, &hi),
                    true,
                    &mut stats,
                    "text user_range",
                )
            }
            2 => {
                let (a, b) = (rng.string(&TEXT_ALPHA, 2), rng.string(&TEXT_ALPHA, 2));
                let (lo, hi) = (rng.bound(a.as_str()), rng.bound(b.as_str()));
                let plan = TextSalted::scan().user(user).region_range((lo, hi));
                assert!(
                    !plan.is_exact(),
                    "a range on a text segment that others follow is filtered"
                );
                check(
                    &t,
                    &plan,
                    |v| v.user == user && in_bounds(&v.region.as_str(), &lo, &hi),
                    true,
                    &mut stats,
                    "text region_range",
                )
            }
            3 => {
                let p = rng.string(&TEXT_ALPHA, 1);
                check(
                    &t,
                    &TextSalted::scan().user(user).region_prefix(&p),
                    |v| v.user == user && v.region.starts_with(&p),
                    true,
                    &mut stats,
                    "text region_prefix",
                )
            }
            4 => {
                let (lo, hi) = (
                    {
                        let v = rng.below(1_100);
                        rng.bound(v)
                    },
                    {
                        let v = rng.below(1_100);
                        rng.bound(v)
                    },
                );
                check(
                    &t,
                    &TextSalted::scan()
                        .user(user)
                        .region(&region)
                        .ts_range((lo, hi)),
                    |v| v.user == user && v.region == region && in_bounds(&v.ts, &lo, &hi),
                    true,
                    &mut stats,
                    "text ts_range",
                )
            }
            _ => {
                let users: Vec<u32> = (0..rng.below(4)).map(|_| rng.below(210) as u32).collect();
                let ts = rng.below(1_000);
                let (a, b) = (rng.string(&TEXT_ALPHA, 3), rng.string(&TEXT_ALPHA, 3));
                let (lo, hi) = (rng.bound(a.as_str()), rng.bound(b.as_str()));
                check(
                    &t,
                    &TextSalted::scan()
                        .user_in(users.clone())
                        .region(&region)
                        .ts(ts)
                        .page_range((lo, hi)),
                    |v| {
                        users.contains(&v.user)
                            && v.region == region
                            && v.ts == ts
                            && in_bounds(&v.page.as_str(), &lo, &hi)
                    },
                    true,
                    &mut stats,
                    "text page_range",
                )
            }
        }
    }
    assert!(stats.expected_rows > SCANS, "{stats:?}");
    println!("salted text: {stats:?}");
}

#[derive(RowKey, Debug, Clone)]
#[rowkey(text, delimiter = "|")]
struct TextHashed {
    #[rowkey(hash_prefix(len = 4))]
    device: String,
    #[rowkey(width = 6)]
    seq: u32,
}

#[test]
fn hashed_text_layout_scans_match_brute_force() {
    let mut rng = Rng(17);
    let t = load((0..KEYS).map(|_| TextHashed {
        device: rng.string(&TEXT_ALPHA, 3),
        seq: rng.below(3_000) as u32,
    }));
    let mut stats = Stats::default();
    for i in 0..SCANS {
        let device = rng.string(&TEXT_ALPHA, 3);
        match i % 3 {
            0 => check(
                &t,
                &TextHashed::scan().device(&device),
                |v| v.device == device,
                false,
                &mut stats,
                "text device",
            ),
            1 => {
                let (lo, hi) = (
                    {
                        let v = rng.below(3_100) as u32;
                        rng.bound(v)
                    },
                    {
                        let v = rng.below(3_100) as u32;
                        rng.bound(v)
                    },
                );
                check(
                    &t,
                    &TextHashed::scan().device(&device).seq_range((lo, hi)),
                    |v| v.device == device && in_bounds(&v.seq, &lo, &hi),
                    false,
                    &mut stats,
                    "text seq_range",
                )
            }
            _ => {
                let p = rng.string(&TEXT_ALPHA, 1);
                check(
                    &t,
                    &TextHashed::scan().device_prefix(&p),
                    |v| v.device.starts_with(&p),
                    false,
                    &mut stats,
                    "text device_prefix",
                )
            }
        }
    }
    println!("hashed text: {stats:?}");
}
