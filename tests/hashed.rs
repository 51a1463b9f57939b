//! `rowkey::Hashed<N>` (DESIGN section 9): the HBase book's `[md5(hostname) 16][md5(event type)
//! 16][timestamp 8]` key, digests checked against `md5sum`'s; the text form (lowercase hex, `desc`
//! inverted); byte order equal to the digest order, round trips and decode errors (proptest);
//! scans that bind hashed fields, against a brute-force filter; `LAYOUT` and `explain`.

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use rowkey::{DecodeErrorKind, Hashed, RowKey};

mod common;
use common::{in_range, Rng};

/// The HBase book's LOG_DATA row key.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct LogData {
    host: Hashed<16>,
    event: Hashed<16>,
    ts: u64,
}

/// A text key: an 8-digit digest of the host, then the time newest first.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Message {
    host: Hashed<4>,
    #[rowkey(desc)]
    id: Hashed<2>,
    ts: u32,
}

/// Hex as `md5sum` prints it, to bytes.
fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

// `echo -n <value> | md5sum`, run by hand:
const MD5_HOST: &str = "158c93e0eca9fd1206753a1972c261ed"; // myserver1.mycompany.com
const MD5_LOGIN: &str = "d56b699830e77ba53855679cb1d252da"; // login

#[test]
fn the_hbase_book_log_data_key_is_two_digests_and_a_timestamp() {
    let row = LogData {
        host: Hashed::of("myserver1.mycompany.com"),
        event: Hashed::of("login"),
        ts: 1_700_000_000_000,
    };
    let key = row.to_vec().unwrap();
    let mut expected = hex(MD5_HOST);
    expected.extend(hex(MD5_LOGIN));
    // 1,700,000,000,000 as 8 bytes big-endian (python3: (1700000000000).to_bytes(8, 'big')).
    expected.extend([0x00, 0x00, 0x01, 0x8B, 0xCF, 0xE5, 0x68, 0x00]);
    assert_eq!(key, expected);
    assert_eq!(LogData::decode(&key).unwrap(), row);
    assert_eq!(LogData::LEN, 40);
    assert_eq!(row.host.to_string(), MD5_HOST);
}

#[test]
fn text_layouts_write_lowercase_hex_and_desc_inverts_the_digest() {
    let m = Message {
        host: Hashed::of("myserver1.mycompany.com"),
        id: Hashed::of("login"),
        ts: 42,
    };
    let key = m.to_vec().unwrap();
    // d56b inverted is 2a94.
    assert_eq!(key, b"158c93e0:2a94:0000000042");
    assert_eq!(Message::decode(&key).unwrap(), m);
    for (bad, at) in [
        (&b"158C93e0:2a94:0000000042"[..], "uppercase"),
        (b"158c93eg:2a94:0000000042", "not hex"),
    ] {
        let err = Message::decode(bad).unwrap_err();
        assert_eq!(
            err.kind(),
            DecodeErrorKind::InvalidText("lowercase hex digits"),
            "{at}"
        );
        assert_eq!(err.field(), "host");
    }
    let err = Message::decode(b"158c93").unwrap_err();
    assert!(matches!(err.kind(), DecodeErrorKind::Truncated { .. }));
}

#[test]
fn layout_describes_digests() {
    let l = &LogData::LAYOUT;
    assert_eq!(
        l.segments[0].encoding.to_string(),
        "the first 16 bytes of MD5 of the value"
    );
    assert_eq!(l.segments[1].offset, Some(16));
    let t = &Message::LAYOUT;
    assert_eq!(
        t.segments[0].encoding.to_string(),
        "MD5 of the value, its first 4 bytes as 8 lowercase hex digits"
    );
    assert_eq!(
        t.segments[1].encoding.to_string(),
        "MD5 of the value, its first 2 bytes inverted, as 4 lowercase hex digits"
    );
    let key = Message {
        host: Hashed::of("a"),
        id: Hashed::of("b"),
        ts: 1,
    }
    .to_vec()
    .unwrap();
    let explained = Message::explain(&key).unwrap();
    // md5("a") = 0cc175b9c0f1b6a831c399e269772661
    assert_eq!(explained.rows[0].value, "Hashed(0cc175b9)");
}

#[test]
fn key_order_is_digest_order_and_keys_round_trip() {
    let cases = common::scaled(10_000, 1_000_000) as u32;
    let value = (any::<Vec<u8>>(), any::<Vec<u8>>(), 0u32..3);
    TestRunner::new(common::proptest_config(cases))
        .run(&(value.clone(), value), |((h1, i1, t1), (h2, i2, t2))| {
            let a = Message {
                host: Hashed::of(&h1),
                id: Hashed::of(&i1),
                ts: t1,
            };
            let b = Message {
                host: Hashed::of(&h2),
                id: Hashed::of(&i2),
                ts: t2,
            };
            let (ka, kb) = (a.to_vec().unwrap(), b.to_vec().unwrap());
            // Independent order: digest bytes ascending, the desc digest descending, then ts.
            let order = (a.host.as_bytes().cmp(b.host.as_bytes()))
                .then(b.id.as_bytes().cmp(a.id.as_bytes()))
                .then(a.ts.cmp(&b.ts));
            prop_assert_eq!(ka.cmp(&kb), order);
            prop_assert_eq!(Message::decode(&ka).unwrap(), a);
            let (la, lb) = (
                LogData {
                    host: Hashed::of(&h1),
                    event: Hashed::of(&i1),
                    ts: u64::from(t1),
                },
                LogData {
                    host: Hashed::of(&h2),
                    event: Hashed::of(&i2),
                    ts: u64::from(t2),
                },
            );
            let (ka, kb) = (la.to_vec().unwrap(), lb.to_vec().unwrap());
            let order = (la.host.as_bytes().cmp(lb.host.as_bytes()))
                .then(la.event.as_bytes().cmp(lb.event.as_bytes()))
                .then(la.ts.cmp(&lb.ts));
            prop_assert_eq!(ka.cmp(&kb), order);
            prop_assert_eq!(LogData::decode(&ka).unwrap(), la);
            Ok(())
        })
        .unwrap();
}

#[test]
fn random_bytes_decode_to_a_value_or_an_error() {
    let cases = common::scaled(20_000, 1_000_000) as u32;
    TestRunner::new(common::proptest_config(cases))
        .run(&proptest::collection::vec(any::<u8>(), 0..48), |bytes| {
            common::decodes_to_its_own_key::<Message>(&bytes).map_err(TestCaseError::fail)?;
            common::decodes_to_its_own_key::<LogData>(&bytes).map_err(TestCaseError::fail)?;
            Ok(())
        })
        .unwrap();
}

/// A plan, and the predicate over values it must agree with.
type Query = (rowkey::Scan<LogData>, Box<dyn Fn(&LogData) -> bool>);

#[test]
fn scans_bind_hashed_fields() {
    let hosts: Vec<String> = (0..40).map(|i| format!("web-{i}.example.com")).collect();
    let events = ["login", "logout", "page_view", "click"];
    let mut rng = Rng(41);
    let rows: BTreeMap<Vec<u8>, LogData> = (0..3_000)
        .map(|_| {
            let row = LogData {
                host: Hashed::of(rng.pick(&hosts)),
                event: Hashed::of(rng.pick(&events)),
                ts: rng.below(1_000),
            };
            (row.to_vec().unwrap(), row)
        })
        .collect();
    for i in 0..300 {
        let host = Hashed::of(rng.pick(&hosts));
        let event = Hashed::of(rng.pick(&events));
        let ts = rng.range(|r| r.below(1_100));
        let (plan, pred): Query = match i % 3 {
            0 => (
                LogData::scan().host(host).into(),
                Box::new(move |r| r.host == host),
            ),
            1 => (
                LogData::scan().host(host).event(event).into(),
                Box::new(move |r| r.host == host && r.event == event),
            ),
            _ => (
                LogData::scan().host(host).event(event).ts_range(ts).into(),
                Box::new(move |r| r.host == host && r.event == event && in_range(&r.ts, &ts)),
            ),
        };
        assert!(plan.is_exact());
        let got: Vec<&LogData> = plan
            .ranges()
            .flat_map(|r| rows.range::<[u8], _>(&r).map(|(_, v)| v))
            .collect();
        let expected: Vec<&LogData> = rows.values().filter(|r| pred(r)).collect();
        assert_eq!(got, expected, "scan {i}");
        for (k, v) in rows.iter().step_by(37) {
            assert_eq!(plan.matches(k), pred(v), "scan {i}: matches");
        }
    }
}
