//! The README's layouts as the store tests use them (etcd, Bigtable): how to draw a value, and
//! the `i`th query with the predicate over decoded values that it must agree with. Included by
//! the store tests with `#[path]`, beside `common`.

use std::collections::BTreeSet;

use rowkey::{RowKey, Scan};

use super::common::{in_range, soak, Rng};

/// How many of `keys` (sorted) lie in the ranges of `plan`: what a store reads for it, matched or
/// not (an inexact plan reads more than it keeps), and what the tests size their pages by.
pub fn rows_read<K: ?Sized>(keys: &[Vec<u8>], plan: &Scan<K>) -> usize {
    plan.ranges()
        .map(|r| {
            let from = keys.partition_point(|k| k.as_slice() < r.start());
            let to = match r.stop() {
                [] => keys.len(),
                stop => keys.partition_point(|k| k.as_slice() < stop),
            };
            to.saturating_sub(from)
        })
        .sum()
}

/// A loaded row: its key and the value it was encoded from.
pub type Row<K> = (Vec<u8>, K);

/// `rows` values of `layout` drawn from `rng`, each with its key from `encode`, in key order,
/// duplicate keys dropped; and the keys alone.
pub fn draw<K>(
    layout: &Layout<K>,
    rows: usize,
    rng: &mut Rng,
    encode: impl Fn(&K) -> Vec<u8>,
) -> (Vec<Row<K>>, Vec<Vec<u8>>) {
    let mut values: Vec<Row<K>> = (0..rows)
        .map(|_| {
            let v = (layout.value)(rng);
            (encode(&v), v)
        })
        .collect();
    values.sort_by(|a, b| a.0.cmp(&b.0));
    values.dedup_by(|a, b| a.0 == b.0);
    let keys = values.iter().map(|(k, _)| k.clone()).collect();
    (values, keys)
}

/// A drawn query: the plan, and the predicate over values it must agree with.
pub type Query<K> = (Scan<K>, Box<dyn Fn(&K) -> bool>);

/// A layout under test: how to draw a value, and the `i`th query.
pub struct Layout<K: 'static> {
    pub name: &'static str,
    pub value: fn(&mut Rng) -> K,
    pub query: fn(&mut Rng, usize) -> Query<K>,
}

#[derive(RowKey, Debug, Clone)]
pub struct Salted {
    #[rowkey(salt(buckets = 16))]
    pub user: u32,
    #[rowkey(desc)]
    pub ts: i64,
}

/// A user's events, a user's events in a time range, an IN list of users, and (every fourth
/// plan, every twentieth in the soak run) a range of users: every bucket, merged, a third of the
/// table on average.
pub const SALTED: Layout<Salted> = Layout {
    name: "salted",
    value: |rng| Salted {
        user: rng.below(500) as u32,
        ts: rng.below(100_000) as i64 - 50_000,
    },
    query: |rng, i| {
        let user = rng.below(520) as u32;
        let ts = rng.range(|r| r.below(110_000) as i64 - 55_000);
        let users: Vec<u32> = (0..rng.below(5)).map(|_| rng.below(520) as u32).collect();
        let range = rng.range(|r| r.below(520) as u32);
        let users_range = i % if soak() { 20 } else { 4 } == 3;
        match if users_range { 3 } else { i % 3 } {
            0 => (
                Salted::scan().user(user).into(),
                Box::new(move |v: &Salted| v.user == user),
            ),
            1 => (
                Salted::scan().user(user).ts_range(ts).into(),
                Box::new(move |v: &Salted| v.user == user && in_range(&v.ts, &ts)),
            ),
            2 => (
                Salted::scan().user_in(users.clone()).into(),
                Box::new(move |v: &Salted| users.contains(&v.user)),
            ),
            _ => (
                Salted::scan().user_range(range).into(),
                Box::new(move |v: &Salted| in_range(&v.user, &range)),
            ),
        }
    },
};

#[derive(RowKey, Debug, Clone)]
pub struct Hashed {
    #[rowkey(hash_prefix(len = 2))]
    pub device: u16,
    pub seq: u32,
}

/// A device's sequence range, a device, and (every tenth plan, every hundredth in the soak run) a
/// range of devices: an unbound hash source, so the whole table filtered by `matches`.
pub const HASHED: Layout<Hashed> = Layout {
    name: "hashed",
    value: |rng| Hashed {
        device: rng.below(400) as u16,
        seq: rng.below(5_000) as u32,
    },
    query: |rng, i| {
        let device = rng.below(420) as u16;
        let seqs = rng.range(|r| r.below(5_200) as u32);
        let devices = rng.range(|r| r.below(420) as u16);
        let whole_table = i % if soak() { 100 } else { 10 } == 9;
        match if whole_table { 9 } else { i % 9 } {
            0..=5 => (
                Hashed::scan().device(device).seq_range(seqs).into(),
                Box::new(move |v: &Hashed| v.device == device && in_range(&v.seq, &seqs)),
            ),
            6..=8 => (
                Hashed::scan().device(device).into(),
                Box::new(move |v: &Hashed| v.device == device),
            ),
            _ => (
                Hashed::scan().device_range(devices).into(),
                Box::new(move |v: &Hashed| in_range(&v.device, &devices)),
            ),
        }
    },
};

#[derive(RowKey, Debug, Clone)]
pub struct Names {
    #[rowkey(desc)]
    pub region: String,
    pub name: String,
}

/// The characters strings are drawn from: the escape and terminator bytes, and the extremes.
const ALPHA: [char; 5] = ['a', 'b', '\0', 'ÿ', 'z'];

/// A region, and a prefix of regions: of two characters, or one (every other prefix plan, every
/// tenth in the soak run: a fifth of the table), or (every tenth plan, every hundredth in the soak
/// run) the empty prefix, the whole table. Names carry a number so that
/// 100,000 draws are nearly all distinct rows.
pub const NAMES: Layout<Names> = Layout {
    name: "desc strings",
    value: |rng| Names {
        region: rng.string(&ALPHA, 3),
        name: format!("{}{}", rng.string(&ALPHA, 4), rng.below(1_000)),
    },
    query: |rng, i| {
        let region = rng.string(&ALPHA, 3);
        let whole_table = i % if soak() { 100 } else { 10 } == 9;
        let p_len = match i % if soak() { 20 } else { 4 } {
            _ if whole_table => 0,
            1 => 1,
            _ => 2,
        };
        let p: String = (0..p_len).map(|_| *rng.pick(&ALPHA)).collect();
        match if whole_table { 1 } else { i % 2 } {
            0 => (
                Names::scan().region(&region).into(),
                Box::new(move |v: &Names| v.region == region),
            ),
            _ => (
                Names::scan().region_prefix(&p).into(),
                Box::new(move |v: &Names| v.region.starts_with(&p)),
            ),
        }
    },
};

#[derive(RowKey, Debug, Clone)]
#[rowkey(text, delimiter = ":")]
pub struct Text {
    #[rowkey(salt(buckets = 10))]
    pub host: String,
    #[rowkey(desc)]
    pub ts: u32,
}

/// A host's time range, a host, and (every third plan, every hundredth in the soak run) a range
/// of hosts: all ten buckets merged, about a third of the table.
pub const TEXT: Layout<Text> = Layout {
    name: "salted text",
    value: |rng| Text {
        host: format!("web-{}", rng.below(60)),
        ts: rng.below(1_000_000) as u32,
    },
    query: |rng, i| {
        let host = format!("web-{}", rng.below(64));
        let ts = rng.range(|r| r.below(1_100_000) as u32);
        let hosts = rng.range(|r| format!("web-{}", r.below(64)));
        let hosts_range = i % if soak() { 100 } else { 3 } == 2;
        match if hosts_range { 2 } else { i % 2 } {
            0 => (
                Text::scan().host(&host).ts_range(ts).into(),
                Box::new(move |v: &Text| v.host == host && in_range(&v.ts, &ts)),
            ),
            1 => (
                Text::scan().host(&host).into(),
                Box::new(move |v: &Text| v.host == host),
            ),
            _ => (
                Text::scan()
                    .host_range((
                        hosts.0.as_ref().map(String::as_str),
                        hosts.1.as_ref().map(String::as_str),
                    ))
                    .into(),
                Box::new(move |v: &Text| in_range(&v.host, &hosts)),
            ),
        }
    },
};

/// `got` holds exactly the `expected` rows, each once.
pub fn check<K: ?Sized>(
    name: &str,
    i: usize,
    how: &str,
    plan: &Scan<K>,
    expected: &[&Vec<u8>],
    got: &[Vec<u8>],
) {
    let distinct: BTreeSet<&Vec<u8>> = got.iter().collect();
    assert_eq!(
        distinct.len(),
        got.len(),
        "{name} scan {i} ({how}): a row twice"
    );
    let missing: Vec<_> = expected
        .iter()
        .filter(|k| !distinct.contains(**k))
        .take(3)
        .collect();
    assert!(
        missing.is_empty(),
        "{name} scan {i} ({how}): missing {missing:02X?} of {plan:?}"
    );
    assert_eq!(
        got.len(),
        expected.len(),
        "{name} scan {i} ({how}): extra rows"
    );
}
