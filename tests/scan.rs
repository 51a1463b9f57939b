//! Scan plans byte for byte: the examples of DESIGN.md section 7, HBase's stop-row rule for 0xFF,
//! bounds through `desc`, empty plans, IN lists, salted fan-out and hash-prefix exactness.

use rowkey::{KeyRange, RowKey, Scan};

/// The stop row of a prefix scan.
fn prefix_stop(prefix: &[u8]) -> Vec<u8> {
    KeyRange::prefix(prefix).stop().to_vec()
}

/// Any state of the builder converts into the plan it stands for.
fn ranges<K>(plan: impl Into<Scan<K>>) -> Vec<(Vec<u8>, Vec<u8>)> {
    plan.into()
        .ranges()
        .map(|r| (r.start().to_vec(), r.stop().to_vec()))
        .collect()
}

#[derive(RowKey)]
struct K {
    user: u8,
    ts: u8,
}

#[test]
fn design_section_7_examples() {
    assert_eq!(ranges(K::scan().user(2)), [(vec![0x02], vec![0x03])]);
    assert_eq!(
        ranges(K::scan().user(2).ts_range(5..20)),
        [(vec![0x02, 0x05], vec![0x02, 0x14])]
    );
}

#[test]
fn stop_rows_follow_hbase_for_trailing_ff() {
    // ClientUtil.calculateTheClosestNextRowKeyForPrefix.
    assert_eq!(prefix_stop(&[0x02]), [0x03]);
    assert_eq!(prefix_stop(&[0x02, 0xFF]), [0x03]);
    assert_eq!(prefix_stop(&[0x12, 0xFF, 0xFF]), [0x13]);
    assert_eq!(prefix_stop(&[0xFF]), Vec::<u8>::new());
    assert_eq!(prefix_stop(&[0xFF, 0xFF, 0xFF]), Vec::<u8>::new());
    assert_eq!(prefix_stop(&[]), Vec::<u8>::new());
    assert_eq!(ranges(K::scan().user(0xFF)), [(vec![0xFF], vec![])]);
    assert_eq!(
        ranges(K::scan().user(0x7F).ts_range(0xF0..)),
        [(vec![0x7F, 0xF0], vec![0x80])]
    );
    assert_eq!(
        ranges(K::scan().user(0xFF).ts_range(0xF0..)),
        [(vec![0xFF, 0xF0], vec![])]
    );
}

#[test]
fn inclusive_and_exclusive_bounds() {
    assert_eq!(
        ranges(K::scan().user(1).ts_range(5..=20)),
        [(vec![1, 5], vec![1, 21])]
    );
    assert_eq!(
        ranges(K::scan().user(1).ts_range(..20)),
        [(vec![1], vec![1, 20])]
    );
    use std::ops::Bound::{Excluded, Included};
    assert_eq!(
        ranges(K::scan().user(1).ts_range((Excluded(5), Included(6)))),
        [(vec![1, 6], vec![1, 7])]
    );
    assert_eq!(ranges(K::scan().user_range(3..5)), [(vec![3], vec![5])]);
    assert_eq!(ranges(K::scan()), [(vec![], vec![])]);
}

#[derive(RowKey)]
struct Desc {
    user: u8,
    #[rowkey(desc)]
    ts: u8,
}

#[test]
fn desc_bounds_keep_the_field_order() {
    // 5 <= ts < 20 is stored as !19 ..= !5, that is EC ..= FA.
    let plan = Desc::scan().user(1).ts_range(5..20);
    assert_eq!(ranges(plan.clone()), [(vec![1, 0xEC], vec![1, 0xFB])]);
    let key = |ts| Desc { user: 1, ts }.to_vec().unwrap();
    assert!(plan.matches(&key(5)) && plan.matches(&key(19)));
    assert!(!plan.matches(&key(4)) && !plan.matches(&key(20)));
}

#[test]
fn empty_ranges_and_lists_give_empty_plans() {
    #[allow(clippy::reversed_empty_ranges)]
    let backwards = K::scan().user(1).ts_range(9..3);
    assert!(ranges(backwards.clone()).is_empty());
    assert!(!backwards.matches(&[1, 5]));
    assert!(ranges(K::scan().user(1).ts_range(5..5)).is_empty());
    assert!(ranges(K::scan().user_in(Vec::new())).is_empty());
    assert!(!K::scan().user_in([]).matches(&[1, 1]));
    assert!(ranges(K::scan().user_in([]).ts(3)).is_empty());
}

#[test]
fn in_lists_are_sorted_deduplicated_and_merged() {
    assert_eq!(
        ranges(K::scan().user_in([3, 1, 2, 2, 9])),
        [(vec![1], vec![4]), (vec![9], vec![10])]
    );
    let plan = K::scan().user_in([2, 1]).ts_in([7, 5]);
    assert_eq!(
        ranges(plan.clone()),
        [
            (vec![1, 5], vec![1, 6]),
            (vec![1, 7], vec![1, 8]),
            (vec![2, 5], vec![2, 6]),
            (vec![2, 7], vec![2, 8])
        ]
    );
    assert!(plan.is_exact() && plan.matches(&[2, 7]) && !plan.matches(&[2, 6]));
}

#[derive(RowKey)]
struct Last {
    a: u8,
    name: String,
}

#[test]
fn last_string_equality_is_one_key_and_prefixes_are_prefixes() {
    assert_eq!(
        ranges(Last::scan().a(1).name("ab")),
        [(b"\x01ab".to_vec(), b"\x01ab\x00".to_vec())]
    );
    assert_eq!(
        ranges(Last::scan().a(1).name_prefix("ab")),
        [(b"\x01ab".to_vec(), b"\x01ac".to_vec())]
    );
    let after = Last::scan()
        .a(1)
        .name_range::<(std::ops::Bound<&str>, std::ops::Bound<&str>)>((
            std::ops::Bound::Excluded("ab"),
            std::ops::Bound::Unbounded,
        ));
    assert_eq!(ranges(after), [(b"\x01ab\x00".to_vec(), vec![0x02])]);
}

#[derive(RowKey)]
struct Salted {
    #[rowkey(salt(buckets = 4))]
    user: u8,
    ts: u8,
}

#[test]
fn salted_scans_fan_out_per_bucket_and_never_merge_across_buckets() {
    let all = ranges(Salted::scan());
    assert_eq!(
        all,
        [
            (vec![0], vec![1]),
            (vec![1], vec![2]),
            (vec![2], vec![3]),
            (vec![3], vec![4])
        ]
    );
    let by_ts = ranges(Salted::scan().user_range(..).clone());
    assert_eq!(by_ts.len(), 4);
    let one = Salted::scan().user(9);
    let key = Salted { user: 9, ts: 1 }.to_vec().unwrap();
    assert_eq!(ranges(one.clone()), [(vec![key[0], 9], vec![key[0], 10])]);
    assert!(one.matches(&key));
    let mut wrong_bucket = key.clone();
    wrong_bucket[0] = (key[0] + 1) % 4;
    assert!(!one.matches(&wrong_bucket));
    // A range over the salt source cannot know the bucket: one range per bucket.
    let r = Salted::scan().user_range(1..3);
    let got = ranges(r);
    assert_eq!(got.len(), 4);
    assert!(got
        .iter()
        .enumerate()
        .all(|(b, (s, e))| s == &vec![b as u8, 1] && e == &vec![b as u8, 3]));
    assert_eq!(Salted::split_keys(4), [vec![1], vec![2], vec![3]]);
}

#[derive(RowKey)]
struct Hashed {
    #[rowkey(hash_prefix(len = 2))]
    id: u16,
    seq: u8,
}

#[test]
fn hash_prefixed_scans_are_exact_only_when_sources_are_bound() {
    let bound = Hashed::scan().id(7).seq_range(1..3);
    let key = Hashed { id: 7, seq: 2 }.to_vec().unwrap();
    assert!(bound.is_exact());
    assert_eq!(
        ranges(bound),
        [(
            [&key[..2], &[0, 7, 1]].concat(),
            [&key[..2], &[0, 7, 3]].concat()
        )]
    );
    let unbound = Hashed::scan().id_range(5..10);
    assert!(!unbound.is_exact());
    assert_eq!(ranges(unbound.clone()), [(vec![], vec![])]);
    assert!(
        unbound.matches(&key) && !unbound.matches(&Hashed { id: 10, seq: 2 }.to_vec().unwrap())
    );
    assert!(Hashed::scan().is_exact());
}

#[derive(RowKey)]
struct Narrow {
    #[rowkey(width = 1)]
    shard: u32,
    tail: u8,
}

#[test]
fn values_too_wide_for_their_width_match_nothing() {
    assert!(ranges(Narrow::scan().shard(300)).is_empty());
    assert_eq!(
        ranges(Narrow::scan().shard_in([300, 2])),
        [(vec![2], vec![3])]
    );
    assert!(ranges(Narrow::scan().shard_range(300..400)).is_empty());
}

#[test]
fn key_ranges_contain_their_keys_and_render_as_shell_scans() {
    let r = KeyRange::new(&[1, 2], &[1, 3]);
    assert!(
        r.contains(&[1, 2])
            && r.contains(&[1, 2, 0xFF])
            && !r.contains(&[1, 3])
            && !r.contains(&[1])
    );
    assert!(KeyRange::new(&[5], &[]).contains(&[0xFF, 0xFF]));
    assert_eq!(
        r.to_shell_scan("t"),
        r#"scan 't', {STARTROW => "\x01\x02", STOPROW => "\x01\x03"}"#
    );
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct LongNames {
    name: String,
    seq: u8,
}

/// IN lists of strings longer than 16 bytes that share their first 16, with duplicates and zero
/// bytes inside (escaped): the planner sorts alternatives on their first 16 bytes before it looks
/// further, and the plan must still be exact, sorted and merged.
#[test]
fn in_lists_of_long_shared_prefix_strings_plan_exactly() {
    let stems = ["", "a", "a\0", "b", "ab\0c", "zz"];
    let names: Vec<String> = stems
        .iter()
        .flat_map(|s| {
            [
                format!("shared-prefix-16b{s}"),
                format!("shared-prefix-16{s}"),
                format!("shared-prefix-1{s}"),
                s.to_string(),
            ]
        })
        .collect();
    let keys: Vec<(String, Vec<u8>)> = names
        .iter()
        .map(|n| {
            let k = LongNames {
                name: n.clone(),
                seq: 1,
            }
            .to_vec()
            .unwrap();
            (n.clone(), k)
        })
        .collect();
    let mut state = 0x5EED_u64;
    for _ in 0..500 {
        let picks: Vec<String> = (0..1 + state % 7)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                names[(state % names.len() as u64) as usize].clone()
            })
            .collect();
        let plan = LongNames::scan().name_in(picks.iter());
        let ranges: Vec<KeyRange> = plan.ranges().collect();
        assert!(
            ranges.windows(2).all(|w| w[0].stop() < w[1].start()),
            "ranges unsorted or touching: {ranges:?}"
        );
        for (name, key) in &keys {
            let want = picks.contains(name);
            assert_eq!(
                ranges.iter().any(|r| r.contains(key)),
                want,
                "{name:?} with {picks:?}"
            );
            assert_eq!(plan.matches(key), want, "matches {name:?} with {picks:?}");
        }
    }
}

/// A plan's ranges go straight into `BTreeMap::range` (`KeyRange: RangeBounds<[u8]>`), and read
/// exactly the keys `contains` accepts: empty stops and stops past every key included.
#[test]
fn key_ranges_read_a_btreemap_as_contains_says() {
    use std::collections::BTreeMap;
    use std::ops::Bound;

    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    // Short keys over the bytes stop rows go wrong on: 00, 01, FE, FF.
    let byte = |r: u64| [0x00, 0x01, 0x7F, 0xFE, 0xFF][(r % 5) as usize];
    let mut rows = BTreeMap::new();
    for _ in 0..2_000 {
        let len = (next() % 4) as usize;
        let key: Vec<u8> = (0..len).map(|_| byte(next())).collect();
        rows.insert(key, ());
    }
    let mut checked = 0;
    for _ in 0..2_000 {
        let start: Vec<u8> = (0..next() % 3).map(|_| byte(next())).collect();
        let stop: Vec<u8> = (0..next() % 3).map(|_| byte(next())).collect();
        let r = KeyRange::new(&start, &stop);
        if r.is_empty() {
            continue; // BTreeMap::range panics on start > end; a plan never holds such a range.
        }
        let (lo, hi) = r.bounds();
        assert_eq!(lo, Bound::Included(&start[..]));
        assert_eq!(matches!(hi, Bound::Unbounded), stop.is_empty());
        let read: Vec<&Vec<u8>> = rows.range::<[u8], _>(&r).map(|(k, _)| k).collect();
        let want: Vec<&Vec<u8>> = rows.keys().filter(|k| r.contains(k)).collect();
        assert_eq!(read, want, "{r:?}");
        checked += 1;
    }
    assert!(checked > 1_000, "too few non-empty ranges: {checked}");
}
