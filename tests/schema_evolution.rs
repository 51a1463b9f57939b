//! Changing a layout without breaking stored rows (README, "Changing a layout"): version 1 wrote
//! its keys behind a version tag; version 2 adds a field, declares both versions as variants of
//! one enum key, reads old and new keys side by side, and migrates the old ones.

use std::collections::BTreeMap;

use rowkey::{RowKey, Scan};

mod common;
use common::Rng;

/// Version 1, as the old code declared it: the version tag from day one.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(tag = 1)]
struct EventV1 {
    user: u32,
    ts: u64,
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum Kind {
    Click,
    View,
}

/// Version 2's code: both versions, each behind its tag.
#[derive(RowKey, Debug, Clone, PartialEq)]
enum EventKey {
    #[rowkey(tag = 1)]
    V1 { user: u32, ts: u64 },
    #[rowkey(tag = 2)]
    V2 { user: u32, kind: Kind, ts: u64 },
}

impl EventKey {
    fn user(&self) -> u32 {
        match self {
            EventKey::V1 { user, .. } | EventKey::V2 { user, .. } => *user,
        }
    }
}

/// A table written by version 1, then by version 2.
fn table(rng: &mut Rng) -> (BTreeMap<Vec<u8>, EventKey>, usize) {
    let mut rows = BTreeMap::new();
    for _ in 0..1_000 {
        let old = EventV1 {
            user: rng.below(20) as u32,
            ts: rng.below(1_000),
        };
        let as_enum = EventKey::V1 {
            user: old.user,
            ts: old.ts,
        };
        rows.insert(old.to_vec().unwrap(), as_enum);
    }
    let old_rows = rows.len();
    for _ in 0..1_000 {
        let new = EventKey::V2 {
            user: rng.below(20) as u32,
            kind: if rng.below(2) == 0 {
                Kind::Click
            } else {
                Kind::View
            },
            ts: 1_000 + rng.below(1_000),
        };
        rows.insert(new.to_vec().unwrap(), new);
    }
    (rows, old_rows)
}

fn read<K>(rows: &BTreeMap<Vec<u8>, EventKey>, plan: &Scan<K>) -> Vec<EventKey> {
    plan.ranges()
        .flat_map(|r| rows.range::<[u8], _>(&r))
        .filter(|(k, _)| plan.matches(k))
        .map(|(_, v)| v.clone())
        .collect()
}

#[test]
fn version_1_keys_are_the_v1_variant_byte_for_byte() {
    let old = EventV1 { user: 7, ts: 99 };
    let new = EventKey::V1 { user: 7, ts: 99 };
    assert_eq!(old.to_vec().unwrap(), new.to_vec().unwrap());
    assert_eq!(EventKey::decode(&old.to_vec().unwrap()).unwrap(), new);
    // And version 1's code refuses version 2's keys instead of misreading them.
    let v2 = EventKey::V2 {
        user: 7,
        kind: Kind::View,
        ts: 99,
    };
    assert!(EventV1::decode(&v2.to_vec().unwrap()).is_err());
}

#[test]
fn old_and_new_keys_are_read_side_by_side() {
    let mut rng = Rng(5);
    let (rows, _) = table(&mut rng);
    for (key, value) in &rows {
        assert_eq!(&EventKey::decode(key).unwrap(), value);
    }
    for user in 0..22 {
        // One plan per version, read one after the other: old rows, then new ones.
        let mut got = read(&rows, &EventKey::scan().v1().user(user).into());
        got.extend(read(&rows, &EventKey::scan().v2().user(user).into()));
        let expected: Vec<EventKey> = rows
            .values()
            .filter(|e| e.user() == user)
            .cloned()
            .collect();
        assert_eq!(got, expected, "user {user}");
    }
    let everything: Scan<EventKey> = EventKey::scan().into();
    assert_eq!(read(&rows, &everything).len(), rows.len());
}

#[test]
fn migrating_rewrites_old_keys_under_the_new_tag() {
    let mut rng = Rng(9);
    let (mut rows, old_rows) = table(&mut rng);
    let total = rows.len();
    let old: Vec<(Vec<u8>, EventKey)> = EventKey::scan()
        .v1()
        .ranges()
        .flat_map(|r| {
            rows.range::<[u8], _>(&r)
                .map(|(k, v)| (k.clone(), v.clone()))
        })
        .collect();
    assert_eq!(old.len(), old_rows);
    for (key, value) in old {
        let EventKey::V1 { user, ts } = value else {
            panic!("a version 2 key under tag 1: {value:?}");
        };
        let migrated = EventKey::V2 {
            user,
            kind: Kind::Click,
            ts,
        };
        rows.insert(migrated.to_vec().unwrap(), migrated);
        rows.remove(&key);
    }
    assert!(read(&rows, &EventKey::scan().v1().into()).is_empty());
    // Version 2 timestamps started at 1,000, so no migrated key met a new one.
    assert_eq!(rows.len(), total);
    assert!(rows.values().all(|e| matches!(e, EventKey::V2 { .. })));
}
