//! Struct tags (DESIGN section 9): constant leading bytes, before any salt or hash prefix, so
//! several key types share one ordered key space. Byte vectors, order and round trips
//! (proptest), decode errors for another type's tag, scans over a key space shared with other
//! types (against a brute-force filter), split keys, `after`, `split`, `LAYOUT` and `explain`.

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use rowkey::{DecodeErrorKind, KeyRange, RowKey, Scan};

mod common;
use common::{in_range, Rng};

/// Events behind `evt/`, salted by user.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(tag = b"evt/")]
struct Event {
    #[rowkey(salt(buckets = 4))]
    user: u32,
    #[rowkey(desc)]
    ts: u64,
}

/// Users behind the one byte 0x01.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(tag = 1)]
struct User {
    name: String,
}

/// Devices behind `dev/`, hash-prefixed.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(tag = b"dev/")]
struct Device {
    #[rowkey(hash_prefix(len = 2))]
    id: u32,
    seq: u16,
}

/// A text layout: the tag is the first segment, then a salt of whole keys.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = ":", tag = "msg", salt(buckets = 10))]
struct Message {
    host: String,
    #[rowkey(width = 6)]
    seq: u32,
}

#[test]
fn the_tag_comes_before_everything_else() {
    let e = Event { user: 3, ts: 5 };
    let key = e.to_vec().unwrap();
    // md5 of 00 00 00 03: 0x5a8dd3ad... % 4 = 1; the salt is checked again on decode below.
    assert_eq!(&key[..4], b"evt/");
    assert!(key[4] < 4);
    assert_eq!(&key[5..9], 3u32.to_be_bytes());
    assert_eq!(&key[9..], (!5u64).to_be_bytes());
    assert_eq!(Event::decode(&key).unwrap(), e);
    assert_eq!(Event::LEN, 17);
    assert_eq!(
        (Event::LAYOUT.tag.bytes(), Event::LAYOUT.tag.delimiter()),
        (&b"evt/"[..], "")
    );
    // The salt is computed from the fields, as without a tag.
    #[derive(RowKey)]
    struct Untagged {
        #[rowkey(salt(buckets = 4))]
        user: u32,
        #[rowkey(desc)]
        ts: u64,
    }
    assert_eq!(key[4..], Untagged { user: 3, ts: 5 }.to_vec().unwrap());

    assert_eq!(User { name: "ab".into() }.to_vec().unwrap(), b"\x01ab");
    let m = Message {
        host: "web".into(),
        seq: 42,
    };
    let key = String::from_utf8(m.to_vec().unwrap()).unwrap();
    assert!(key.starts_with("msg:"), "{key}");
    assert!(key.ends_with(":web:000042"), "{key}");
    assert_eq!(key.len(), "msg:".len() + 1 + ":web:000042".len());
    assert_eq!(Message::decode(key.as_bytes()).unwrap(), m);
    let d = Device { id: 9, seq: 2 };
    let key = d.to_vec().unwrap();
    assert_eq!(&key[..4], b"dev/");
    assert_eq!(key.len(), 4 + 2 + 4 + 2);
    assert_eq!(Device::decode(&key).unwrap(), d);
}

#[test]
fn a_key_of_another_type_is_an_unknown_tag() {
    let user = User { name: "x".into() }.to_vec().unwrap();
    let err = Event::decode(&user).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::UnknownTag { name: "Event" });
    assert_eq!(err.key(), "Event");
    let mut event = Event { user: 1, ts: 1 }.to_vec().unwrap();
    event[3] = b'.';
    assert_eq!(
        Event::decode(&event).unwrap_err().kind(),
        DecodeErrorKind::UnknownTag { name: "Event" }
    );
    assert!(Event::decode(b"evt").is_err());
    assert!(Message::decode(b"msg;1:web:000042").is_err());
    assert!(Message::decode(b"msg").is_err());
}

#[test]
fn tagged_keys_round_trip_and_random_bytes_never_panic() {
    let cases = common::scaled(20_000, 1_000_000) as u32;
    let strategy = (
        any::<(u32, u64)>(),
        "[a-c\u{0}]{0,4}",
        (any::<u32>(), any::<u16>()),
        proptest::collection::vec(any::<u8>(), 0..24),
    );
    TestRunner::new(common::proptest_config(cases))
        .run(&strategy, |((user, ts), name, (id, seq), bytes)| {
            let e = Event { user, ts };
            prop_assert_eq!(Event::decode(&e.to_vec().unwrap()).unwrap(), e);
            let u = User { name: name.clone() };
            let key = u.to_vec().unwrap();
            prop_assert_eq!(&key[1..], name.as_bytes());
            prop_assert_eq!(User::decode(&key).unwrap(), u);
            let d = Device { id, seq };
            prop_assert_eq!(Device::decode(&d.to_vec().unwrap()).unwrap(), d);
            let m = Message {
                host: name.replace('\0', ""),
                seq: seq.into(),
            };
            prop_assert_eq!(Message::decode(&m.to_vec().unwrap()).unwrap(), m);
            let mut tagged = b"evt/".to_vec();
            tagged.extend(&bytes);
            for b in [&bytes, &tagged] {
                common::decodes_to_its_own_key::<Event>(b).map_err(TestCaseError::fail)?;
                common::decodes_to_its_own_key::<User>(b).map_err(TestCaseError::fail)?;
                common::decodes_to_its_own_key::<Device>(b).map_err(TestCaseError::fail)?;
                common::decodes_to_its_own_key::<Message>(b).map_err(TestCaseError::fail)?;
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn order_within_a_tag_is_the_fields_order() {
    let cases = common::scaled(20_000, 1_000_000) as u32;
    TestRunner::new(common::proptest_config(cases))
        .run(&(any::<String>(), any::<String>()), |(a, b)| {
            let (ka, kb) = (
                User { name: a.clone() }.to_vec().unwrap(),
                User { name: b.clone() }.to_vec().unwrap(),
            );
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
            Ok(())
        })
        .unwrap();
}

/// One key space holding every type: a key's value is whichever type decodes it.
#[derive(Debug, Clone, PartialEq)]
enum Any {
    Event(Event),
    User(User),
    Device(Device),
}

fn shared_space(rng: &mut Rng) -> BTreeMap<Vec<u8>, Any> {
    let mut rows = BTreeMap::new();
    for _ in 0..4_000 {
        let (key, v) = match rng.below(3) {
            0 => {
                let e = Event {
                    user: rng.below(40) as u32,
                    ts: rng.below(100),
                };
                (e.to_vec().unwrap(), Any::Event(e))
            }
            1 => {
                let u = User {
                    name: rng.string(&['a', 'b', '\0', '\u{ff}'], 3),
                };
                (u.to_vec().unwrap(), Any::User(u))
            }
            _ => {
                let d = Device {
                    id: rng.below(40) as u32,
                    seq: rng.below(20) as u16,
                };
                (d.to_vec().unwrap(), Any::Device(d))
            }
        };
        rows.insert(key, v);
    }
    // Neighbours of the tags: keys just before and after each tag's range.
    for k in [
        &b"evt"[..],
        b"evt.",
        b"evt0",
        b"dev.",
        b"dev0",
        b"\x00",
        b"\x02",
    ] {
        rows.insert(k.to_vec(), Any::User(User { name: "?".into() }));
    }
    rows
}

#[test]
fn scans_stay_inside_their_tag() {
    let mut rng = Rng(3);
    let rows = shared_space(&mut rng);
    let is_event = |v: &Any| matches!(v, Any::Event(_));
    common::check_scan(&rows, &Event::scan().into(), &is_event, "every event");
    common::check_scan(
        &rows,
        &Device::scan().into(),
        &|v: &Any| matches!(v, Any::Device(_)),
        "every device",
    );
    for i in 0..300 {
        let user = rng.below(45) as u32;
        let ts = rng.range(|r| r.below(110));
        let id = rng.below(45) as u32;
        let seqs = rng.range(|r| r.below(25) as u16);
        let prefix = rng.string(&['a', 'b', '\0'], 2);
        match i % 4 {
            0 => common::check_scan(
                &rows,
                &Event::scan().user(user).ts_range(ts).into(),
                &|v: &Any| matches!(v, Any::Event(e) if e.user == user && in_range(&e.ts, &ts)),
                "events of a user",
            ),
            1 => common::check_scan(
                &rows,
                &Device::scan().id(id).seq_range(seqs).into(),
                &|v: &Any| matches!(v, Any::Device(d) if d.id == id && in_range(&d.seq, &seqs)),
                "a device's sequence numbers",
            ),
            2 => common::check_scan(
                &rows,
                &User::scan().name_prefix(&prefix).into(),
                &|v: &Any| matches!(v, Any::User(u) if u.name.starts_with(&prefix) && u.name != "?"),
                "users by name prefix",
            ),
            _ => {
                // Resuming and splitting work on whole keys, tag included.
                let plan: Scan<Event> = Event::scan().user(user).into();
                let keys: Vec<&Vec<u8>> = plan
                    .ranges()
                    .flat_map(|r| rows.range::<[u8], _>(&r).map(|(k, _)| k))
                    .collect();
                if let Some(mid) = keys.get(keys.len() / 2) {
                    let rest = plan.after(mid);
                    common::check_scan(
                        &rows,
                        &rest,
                        &|v: &Any| matches!(v, Any::Event(e) if e.user == user && e.to_vec().unwrap() > **mid),
                        "after",
                    );
                }
                let parts = plan.split(Event::split_keys(4));
                let mut union: Vec<&Vec<u8>> = parts
                    .iter()
                    .flat_map(|p| {
                        p.ranges()
                            .flat_map(|r| rows.range::<[u8], _>(&r).map(|(k, _)| k))
                            .filter(|k| p.matches(k))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                union.sort();
                assert_eq!(union, keys, "split parts read the plan exactly once");
            }
        }
    }
}

#[test]
fn split_keys_and_merges_count_the_tag() {
    assert_eq!(
        Event::split_keys(4),
        [b"evt/\x01", b"evt/\x02", b"evt/\x03"]
    );
    assert!(User::split_keys(4).is_empty());
    let plan: Scan<Event> = Event::scan().into();
    // A merge of the buckets skips the tag and the salt byte.
    assert_eq!(plan.salt_len(), 5);
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    assert_eq!(ranges[0], KeyRange::new(b"evt/\x00", b"evt/\x01"));
    assert_eq!(ranges.len(), 4);
    let plan: Scan<Message> = Message::scan().into();
    assert_eq!(plan.salt_len(), "msg:".len() + 1 + 1);
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    assert_eq!(ranges[0], KeyRange::new(b"msg:0:", b"msg:0;"));
    // A tag of FF bytes has no stop row of its own: its keys run to the end of the table.
    #[derive(RowKey)]
    #[rowkey(tag = b"\xFF\xFF")]
    struct Last {
        n: u8,
    }
    let plan: Scan<Last> = Last::scan().into();
    assert_eq!(
        plan.ranges().collect::<Vec<_>>(),
        [KeyRange::new(b"\xFF\xFF", b"")]
    );
    let plan: Scan<Last> = Last::scan().n(0xFF).into();
    assert_eq!(
        plan.ranges().collect::<Vec<_>>(),
        [KeyRange::new(b"\xFF\xFF\xFF", b"")]
    );
}

#[test]
fn layout_and_explain_show_the_tag() {
    let table = Event::LAYOUT.to_string();
    assert!(
        table.contains("| tag | tag | constant | 0 | 4 | the bytes 65 76 74 2F (\"evt/\") | - |"),
        "{table}"
    );
    assert!(
        table.contains("| prefix | salt | bucket | 4 | 1 |"),
        "{table}"
    );
    assert_eq!(Event::LAYOUT.segments[0].offset, Some(5));
    let tag = Message::LAYOUT.tag;
    assert_eq!((tag.bytes(), tag.delimiter()), (&b"msg"[..], ":"));
    let key = Event { user: 3, ts: 5 }.to_vec().unwrap();
    let explained = Event::explain(&key).unwrap();
    let rows: Vec<&str> = explained.rows.iter().map(|r| r.segment).collect();
    assert_eq!(rows, ["tag", "salt", "user", "ts"]);
    assert_eq!(explained.rows[0].bytes, "evt/");
    assert_eq!(explained.rows[3].value, "5");
}
