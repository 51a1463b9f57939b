//! Enum keys (DESIGN section 9): the variant's tag, then its fields with every field attribute.
//! Bytes against the JDK's (`Bytes.toBytes(long)`, `Long.MAX_VALUE - ts`), key order equal to
//! (tag, fields) order and round trips (proptest), decode errors for unknown tags and malformed
//! keys, scans by variant against a brute-force filter, `LAYOUT.variants` and `explain`.

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use rowkey::{DecodeErrorKind, RowKey, Scan, Tag};

mod common;
use common::{in_range, Rng};

#[path = "common/java.rs"]
mod java;

/// DESIGN section 9's example, with a variant without fields.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Row {
    User {
        id: u64,
    } = 1,
    Order {
        user: u64,
        #[rowkey(desc)]
        ts: i64,
    } = 2,
    Deleted = 9,
}

/// Implicit discriminants (0, 1, 2), a byte-string tag, strings that other fields follow.
#[derive(RowKey, Debug, Clone, PartialEq)]
enum Entity {
    Table {
        id: u32,
    },
    #[rowkey(tag = b"ix")]
    Index {
        table: u32,
        name: String,
        #[rowkey(width = 2)]
        seq: u32,
    },
    Row {
        table: u32,
        #[rowkey(desc)]
        name: String,
    },
}

/// A text enum key under a tag of its own: `acct:u:...`, `acct:o:...`.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = ":", tag = "acct")]
enum Account {
    #[rowkey(tag = "u")]
    User { id: u32 },
    #[rowkey(tag = "o")]
    Order {
        user: u32,
        #[rowkey(desc)]
        ts: u64,
    },
    #[rowkey(tag = 7)]
    Closed,
}

#[test]
fn each_variant_is_its_tag_then_its_fields_as_java_writes_them() {
    let [user7, ts9] = [7i64, 9].map(|c| java::java(&[c]).remove(0));
    let key = Row::Order { user: 7, ts: 9 }.to_vec().unwrap();
    // 02, Bytes.toBytes(7L), Bytes.toBytes(Long.MAX_VALUE - 9L)
    assert_eq!(java::hex(&key), format!("02{}{}", user7[0], ts9[1]));
    let key = Row::User { id: 7 }.to_vec().unwrap();
    assert_eq!(java::hex(&key), format!("01{}", user7[0]));
    assert_eq!(Row::Deleted.to_vec().unwrap(), [9]);
    assert_eq!(Row::decode(&[9]).unwrap(), Row::Deleted);
    assert_eq!(Row::MAX_LEN, Some(17));
    assert_eq!(Row::FIXED_LEN, None); // variants of 9, 17 and 1 bytes
    assert_eq!(Row::LAYOUT.tag, Tag::NONE);
}

#[test]
fn implicit_discriminants_byte_tags_and_text_tags() {
    assert_eq!(Entity::Table { id: 5 }.to_vec().unwrap(), [0, 0, 0, 0, 5]);
    let index = Entity::Index {
        table: 5,
        name: "a\0".into(),
        seq: 3,
    };
    // "ix", 5, then the name escaped (00 -> 00 FF) and terminated (00 01), then 2 bytes of seq.
    assert_eq!(
        index.to_vec().unwrap(),
        b"ix\x00\x00\x00\x05a\x00\xFF\x00\x01\x00\x03"
    );
    // The third variant's implicit discriminant is 2, whatever tag the second has.
    let row = Entity::Row {
        table: 1,
        name: "b".into(),
    };
    assert_eq!(row.to_vec().unwrap(), [2, 0, 0, 0, 1, !b'b', 0xFF, 0xFE]);
    for v in [Entity::Table { id: 9 }, index, row] {
        assert_eq!(Entity::decode(&v.to_vec().unwrap()).unwrap(), v);
    }
    let user = Account::User { id: 42 };
    assert_eq!(
        user.to_vec().unwrap(),
        format!("acct:u:{:010}", 42).into_bytes()
    );
    let order = Account::Order { user: 42, ts: 5 };
    assert_eq!(
        order.to_vec().unwrap(),
        format!("acct:o:{:010}:{:020}", 42, u64::MAX - 5).into_bytes()
    );
    // An integer tag in a text layout is three digits, like a fieldless enum's discriminant.
    assert_eq!(Account::Closed.to_vec().unwrap(), b"acct:007");
    for v in [user, order, Account::Closed] {
        assert_eq!(Account::decode(&v.to_vec().unwrap()).unwrap(), v);
    }
}

#[test]
fn unknown_tags_and_malformed_keys_are_errors() {
    for (key, what) in [
        (&[3u8, 0, 0, 0, 0, 0, 0, 0, 1][..], "no variant has tag 03"),
        (&[][..], "empty"),
        (&[0xFF][..], "FF"),
    ] {
        let err = Row::decode(key).unwrap_err();
        assert_eq!(
            err.kind(),
            DecodeErrorKind::UnknownTag { name: "Row" },
            "{what}"
        );
        assert!(
            err.to_string()
                .contains("does not start with a tag of `Row`"),
            "{err}"
        );
    }
    let err = Row::decode(&[1, 0, 0, 7]).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::Truncated { .. }),
        "{err}"
    );
    assert_eq!(err.field(), "id");
    let err = Row::decode(&[9, 9]).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::TrailingBytes { count: 1 });
    assert!(Entity::decode(b"iy\x00\x00\x00\x05a\x00\x01\x00\x03").is_err());
    let err = Account::decode(b"acct:x:0000000042").unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::UnknownTag { name: "Account" });
    assert!(Account::decode(b"acc:u:0000000042").is_err());
}

fn row() -> impl Strategy<Value = Row> {
    prop_oneof![
        any::<u64>().prop_map(|id| Row::User { id }),
        (any::<u64>(), any::<i64>()).prop_map(|(user, ts)| Row::Order { user, ts }),
        Just(Row::Deleted),
    ]
}

/// The order the keys must have, written from the values: the tag, then the fields, `desc`
/// reversed.
fn row_order(a: &Row, b: &Row) -> std::cmp::Ordering {
    let tag = |r: &Row| match r {
        Row::User { .. } => 1,
        Row::Order { .. } => 2,
        Row::Deleted => 9,
    };
    match (a, b) {
        (Row::User { id: x }, Row::User { id: y }) => x.cmp(y),
        (Row::Order { user: u1, ts: t1 }, Row::Order { user: u2, ts: t2 }) => {
            u1.cmp(u2).then(t2.cmp(t1))
        }
        _ => tag(a).cmp(&tag(b)),
    }
}

fn entity() -> impl Strategy<Value = Entity> {
    let name = proptest::collection::vec(prop_oneof![Just(0u8), Just(0xFF), Just(b'a')], 0..4)
        .prop_map(|b| b.into_iter().map(char::from).collect::<String>());
    prop_oneof![
        any::<u32>().prop_map(|id| Entity::Table { id }),
        (any::<u32>(), name.clone(), 0u32..=0xFFFF).prop_map(|(table, name, seq)| Entity::Index {
            table,
            name,
            seq
        }),
        (any::<u32>(), name).prop_map(|(table, name)| Entity::Row { table, name }),
    ]
}

fn entity_order(a: &Entity, b: &Entity) -> std::cmp::Ordering {
    // Tags: 00, 02 and "ix" (69 78).
    let tag = |e: &Entity| match e {
        Entity::Table { .. } => 0,
        Entity::Row { .. } => 2,
        Entity::Index { .. } => 0x69,
    };
    match (a, b) {
        (Entity::Table { id: x }, Entity::Table { id: y }) => x.cmp(y),
        (
            Entity::Index {
                table: t1,
                name: n1,
                seq: s1,
            },
            Entity::Index {
                table: t2,
                name: n2,
                seq: s2,
            },
        ) => t1.cmp(t2).then(n1.cmp(n2)).then(s1.cmp(s2)),
        (
            Entity::Row {
                table: t1,
                name: n1,
            },
            Entity::Row {
                table: t2,
                name: n2,
            },
        ) => t1.cmp(t2).then(n2.cmp(n1)),
        _ => tag(a).cmp(&tag(b)),
    }
}

#[test]
fn key_order_is_tag_then_field_order_and_keys_round_trip() {
    let cases = common::scaled(20_000, 1_000_000) as u32;
    TestRunner::new(common::proptest_config(cases))
        .run(
            &((row(), row()), (entity(), entity())),
            |((a, b), (c, d))| {
                let (ka, kb) = (a.to_vec().unwrap(), b.to_vec().unwrap());
                prop_assert_eq!(ka.cmp(&kb), row_order(&a, &b), "{:?} {:?}", a, b);
                prop_assert_eq!(Row::decode(&ka).unwrap(), a.clone());
                prop_assert_eq!(ka.len(), a.encoded_len());
                let (kc, kd) = (c.to_vec().unwrap(), d.to_vec().unwrap());
                prop_assert_eq!(kc.cmp(&kd), entity_order(&c, &d), "{:?} {:?}", c, d);
                prop_assert_eq!(Entity::decode(&kc).unwrap(), c.clone());
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn random_bytes_decode_to_a_value_or_an_error() {
    let cases = common::scaled(20_000, 1_000_000) as u32;
    TestRunner::new(common::proptest_config(cases))
        .run(&proptest::collection::vec(any::<u8>(), 0..24), |bytes| {
            common::decodes_to_its_own_key::<Row>(&bytes).map_err(TestCaseError::fail)?;
            common::decodes_to_its_own_key::<Entity>(&bytes).map_err(TestCaseError::fail)?;
            let mut text = b"acct:".to_vec();
            text.extend(bytes.iter().map(|b| b"uo:0123456789"[usize::from(*b) % 13]));
            common::decodes_to_its_own_key::<Account>(&bytes).map_err(TestCaseError::fail)?;
            common::decodes_to_its_own_key::<Account>(&text).map_err(TestCaseError::fail)?;
            Ok(())
        })
        .unwrap();
}

/// A plan, and the predicate over values it must agree with.
type Query<K> = (Scan<K>, Box<dyn Fn(&K) -> bool>);

fn check<K: PartialEq + std::fmt::Debug>(
    rows: &BTreeMap<Vec<u8>, K>,
    (plan, pred): &Query<K>,
    what: &str,
) {
    common::check_scan(rows, plan, pred, what);
}

#[test]
fn scans_start_with_the_variant_then_walk_its_fields() {
    let mut rng = Rng(7);
    let mut rows: BTreeMap<Vec<u8>, Row> = BTreeMap::new();
    for _ in 0..3_000 {
        let row = match rng.below(5) {
            0 => Row::User { id: rng.below(50) },
            1 => Row::Deleted,
            _ => Row::Order {
                user: rng.below(50),
                ts: rng.below(200) as i64 - 100,
            },
        };
        rows.insert(row.to_vec().unwrap(), row);
    }
    for i in 0..400 {
        let user = rng.below(55);
        let users = [rng.below(55), rng.below(55), rng.below(55)];
        let ts = rng.range(|r| r.below(220) as i64 - 110);
        let ids = rng.range(|r| r.below(55));
        let query: Query<Row> = match i % 7 {
            0 => (Row::scan().into(), Box::new(|_| true)),
            1 => (
                Row::scan().order().into(),
                Box::new(|r| matches!(r, Row::Order { .. })),
            ),
            2 => (
                Row::scan().order().user(user).into(),
                Box::new(move |r| matches!(r, Row::Order { user: u, .. } if *u == user)),
            ),
            3 => (
                Row::scan().order().user(user).ts_range(ts).into(),
                Box::new(
                    move |r| matches!(r, Row::Order { user: u, ts: t } if *u == user && in_range(t, &ts)),
                ),
            ),
            4 => (
                Row::scan().order().user_in(users).into(),
                Box::new(move |r| matches!(r, Row::Order { user: u, .. } if users.contains(u))),
            ),
            5 => (
                Row::scan().user().id_range(ids).into(),
                Box::new(move |r| matches!(r, Row::User { id } if in_range(id, &ids))),
            ),
            _ => (
                Row::scan().deleted().into(),
                Box::new(|r| *r == Row::Deleted),
            ),
        };
        check(&rows, &query, &format!("scan {i}"));
    }
}

#[test]
fn text_scans_under_the_enum_tag() {
    let mut rng = Rng(11);
    let mut rows: BTreeMap<Vec<u8>, Account> = BTreeMap::new();
    for _ in 0..2_000 {
        let row = match rng.below(4) {
            0 => Account::User {
                id: rng.below(30) as u32,
            },
            1 => Account::Closed,
            _ => Account::Order {
                user: rng.below(30) as u32,
                ts: rng.below(100),
            },
        };
        rows.insert(row.to_vec().unwrap(), row);
    }
    // Keys of other types, under other tags around it in the same key space, must stay out.
    for other in [
        &b"acc"[..],
        b"acct",
        b"acct;",
        b"acctx:u:0000000001",
        b"accs:u:1",
        b"b",
    ] {
        rows.insert(other.to_vec(), Account::User { id: u32::MAX });
    }
    for i in 0..200 {
        let user = rng.below(33) as u32;
        let ts = rng.range(|r| r.below(110));
        let query: Query<Account> = match i % 4 {
            0 => (
                Account::scan().into(),
                Box::new(|r| *r != Account::User { id: u32::MAX }),
            ),
            1 => (
                Account::scan().order().user(user).ts_range(ts).into(),
                Box::new(
                    move |r| matches!(r, Account::Order { user: u, ts: t } if *u == user && in_range(t, &ts)),
                ),
            ),
            2 => (
                Account::scan().user().id(user).into(),
                Box::new(move |r| *r == Account::User { id: user }),
            ),
            _ => (
                Account::scan().closed().into(),
                Box::new(|r| *r == Account::Closed),
            ),
        };
        check(&rows, &query, &format!("scan {i}"));
    }
    let plan: Scan<Account> = Account::scan().into();
    let ranges: Vec<_> = plan.ranges().collect();
    assert_eq!(ranges, [rowkey::KeyRange::new(b"acct:", b"acct;")]);
}

#[test]
fn layouts_and_explain_show_the_tags() {
    let [user, order, deleted] = Row::LAYOUT.variants else {
        panic!("one layout per variant");
    };
    assert_eq!(order.name, "Row::Order");
    assert_eq!((order.tag.bytes(), order.tag.delimiter()), (&[2u8][..], ""));
    assert_eq!(order.segments[1].offset, Some(9));
    assert_eq!(order.fixed_len, Some(17));
    assert_eq!(user.fixed_len, Some(9));
    assert_eq!(deleted.segments.len(), 0);
    let table = order.to_string();
    assert!(
        table.contains("| tag | tag | constant | 0 | 1 | the bytes 02 | - |"),
        "{table}"
    );
    assert!(table.contains("| 1 | ts | `i64` | 9 | 8 |"), "{table}");
    let text = Account::LAYOUT.variants[1].to_string();
    assert!(
        text.contains("| tag | tag | constant | 0 | 7 | the bytes 61 63 63 74 3A 6F (\"acct:o\"), then the delimiter | - |"),
        "{text}"
    );
    let key = Row::Order { user: 7, ts: 9 }.to_vec().unwrap();
    let explained = Row::explain(&key).unwrap();
    assert_eq!(explained.name, "Row::Order");
    let rows: Vec<(&str, &str)> = explained
        .rows
        .iter()
        .map(|r| (r.segment, r.value.as_str()))
        .collect();
    assert_eq!(rows, [("tag", r"\x02"), ("user", "7"), ("ts", "9")]);
    assert!(Row::explain(&[4]).is_err());
}
