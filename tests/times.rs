//! `SystemTime` fields (DESIGN section 9, "Times"): the bytes Java writes, computed by the JDK
//! itself (tests/java/TimeKeys.java: `ByteBuffer.putLong`, which is HBase's `Bytes.toBytes(long)`,
//! and `String.format("%019d", ...)`), for every unit, ascending and `desc`, binary and text;
//! truncation to the unit; key order equal to the order of the stored times (proptest); range
//! scans with bounds between whole units, and equality by the time a row was written with, against
//! a brute-force filter over the decoded values; errors for times before the epoch.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rowkey::{EncodeErrorKind, KeyField, RowKey};

mod common;
#[path = "common/java.rs"]
mod java;
use common::{in_range, Rng};
use java::{hex, java};

#[derive(RowKey, Debug, PartialEq)]
struct AscMs {
    ts: SystemTime,
}

#[derive(RowKey, Debug, PartialEq)]
struct DescMs {
    #[rowkey(desc)]
    ts: SystemTime,
}

#[derive(RowKey, Debug, PartialEq)]
struct AscSeconds {
    #[rowkey(unit = "s")]
    ts: SystemTime,
}

#[derive(RowKey, Debug, PartialEq)]
struct DescMicros {
    #[rowkey(unit = "us", desc)]
    ts: SystemTime,
}

#[derive(RowKey, Debug, PartialEq)]
struct AscNanos {
    #[rowkey(unit = "ns")]
    ts: SystemTime,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text)]
struct TextMs {
    ts: SystemTime,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text)]
struct TextDescMs {
    #[rowkey(desc)]
    ts: SystemTime,
}

/// A user's events, newest first, then a sequence number.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    user: u32,
    #[rowkey(desc)]
    ts: SystemTime,
    seq: u8,
}

/// The same ascending, in a text layout with microseconds.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Message {
    user: u32,
    #[rowkey(unit = "us")]
    ts: SystemTime,
}

#[test]
fn keys_are_the_bytes_java_writes() {
    let counts = [
        0,
        1,
        255,
        256,
        1_700_000_000_000,
        1_700_000_000_123,
        4_102_444_800_000,
        9_000_000_000_000_000,
    ];
    let java = java(&counts);
    for (&c, [asc, desc, text, text_desc]) in counts.iter().zip(&java) {
        let ms = UNIX_EPOCH + Duration::from_millis(c as u64);
        assert_eq!(hex(&AscMs { ts: ms }.to_vec().unwrap()), *asc, "ms {c}");
        assert_eq!(
            hex(&DescMs { ts: ms }.to_vec().unwrap()),
            *desc,
            "desc ms {c}"
        );
        assert_eq!(
            TextMs { ts: ms }.to_vec().unwrap(),
            text.as_bytes(),
            "text {c}"
        );
        let key = TextDescMs { ts: ms }.to_vec().unwrap();
        assert_eq!(key, text_desc.as_bytes(), "text desc {c}");
        assert_eq!(TextDescMs::decode(&key).unwrap().ts, ms);
        assert_eq!(
            DescMs::decode(&DescMs { ts: ms }.to_vec().unwrap())
                .unwrap()
                .ts,
            ms
        );
        let s = UNIX_EPOCH + Duration::from_secs(c as u64);
        assert_eq!(hex(&AscSeconds { ts: s }.to_vec().unwrap()), *asc, "s {c}");
        let us = UNIX_EPOCH + Duration::from_micros(c as u64);
        let key = DescMicros { ts: us }.to_vec().unwrap();
        assert_eq!(hex(&key), *desc, "desc us {c}");
        assert_eq!(DescMicros::decode(&key).unwrap().ts, us);
        let ns = UNIX_EPOCH + Duration::from_nanos(c as u64);
        assert_eq!(hex(&AscNanos { ts: ns }.to_vec().unwrap()), *asc, "ns {c}");
    }
}

#[test]
fn finer_times_are_truncated_to_the_unit() {
    let t = UNIX_EPOCH + Duration::from_micros(1_500_700); // 1500.7 ms
    let key = AscMs { ts: t }.to_vec().unwrap();
    assert_eq!(key, 1_500u64.to_be_bytes());
    assert_eq!(
        AscMs::decode(&key).unwrap().ts,
        UNIX_EPOCH + Duration::from_millis(1_500)
    );
    assert!(!t.stores_exactly(rowkey::FieldMode::LAST));
    let before = UNIX_EPOCH - Duration::from_millis(1);
    let err = AscMs { ts: before }.to_vec().unwrap_err();
    assert!(
        matches!(err.kind(), EncodeErrorKind::Unsupported(_)),
        "{err}"
    );
    // A key with its top bit set is no time (Java's long would be negative).
    assert!(AscMs::decode(&[0x80, 0, 0, 0, 0, 0, 0, 0]).is_err());
    assert_eq!(
        Event::LAYOUT.segments[1].encoding.to_string(),
        "Long.MAX_VALUE - count of ms since the Unix epoch, 8 bytes big-endian"
    );
    assert_eq!(
        Message::LAYOUT.segments[1].encoding.to_string(),
        "count of us since the Unix epoch, 19 digits"
    );
}

/// Nanoseconds since the epoch: whole milliseconds often (ties), any nanosecond otherwise.
fn nanos() -> impl Strategy<Value = u64> + Clone {
    prop_oneof![
        (0u64..4_000).prop_map(|ms| ms * 1_000_000),
        0u64..4_000_000_000,
        0u64..(1 << 62),
    ]
}

#[test]
fn key_order_is_the_order_of_the_stored_times() {
    let cases = common::scaled(10_000, 1_000_000) as u32;
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new(config)
        .run(&(nanos(), nanos(), 0u8..3, 0u8..3), |(a, b, sa, sb)| {
            let (ta, tb) = (
                UNIX_EPOCH + Duration::from_nanos(a),
                UNIX_EPOCH + Duration::from_nanos(b),
            );
            let (ea, eb) = (
                Event {
                    user: 1,
                    ts: ta,
                    seq: sa,
                },
                Event {
                    user: 1,
                    ts: tb,
                    seq: sb,
                },
            );
            let (ka, kb) = (ea.to_vec().unwrap(), eb.to_vec().unwrap());
            // Stored: whole milliseconds, newest first, then seq.
            let (ma, mb) = (a / 1_000_000, b / 1_000_000);
            prop_assert_eq!(ka.cmp(&kb), mb.cmp(&ma).then(sa.cmp(&sb)));
            let back = Event::decode(&ka).unwrap();
            prop_assert_eq!(back.ts, UNIX_EPOCH + Duration::from_millis(ma));
            let (xa, xb) = (
                Message { user: 1, ts: ta }.to_vec().unwrap(),
                Message { user: 1, ts: tb }.to_vec().unwrap(),
            );
            prop_assert_eq!(xa.cmp(&xb), (a / 1_000).cmp(&(b / 1_000)));
            Ok(())
        })
        .unwrap();
}

#[test]
fn time_scans_keep_exactly_the_stored_times_in_range() {
    let mut rng = Rng(61);
    // Times within 10 seconds, at any nanosecond: many rows share a millisecond.
    let time = |rng: &mut Rng| UNIX_EPOCH + Duration::from_nanos(rng.below(10_000_000_000));
    let mut written = Vec::new();
    let rows: BTreeMap<Vec<u8>, Event> = (0..4_000)
        .map(|_| {
            let e = Event {
                user: rng.below(3) as u32,
                ts: time(&mut rng),
                seq: rng.below(4) as u8,
            };
            written.push(e.clone());
            let key = e.to_vec().unwrap();
            (key.clone(), Event::decode(&key).unwrap())
        })
        .collect();
    let aligned = |rng: &mut Rng| UNIX_EPOCH + Duration::from_millis(rng.below(10_000));
    for i in 0..400 {
        let user = rng.below(3) as u32;
        // Bounds on whole milliseconds and between them.
        let range: (Bound<SystemTime>, Bound<SystemTime>) = if i % 2 == 0 {
            rng.range(time)
        } else {
            rng.range(aligned)
        };
        let plan = Event::scan().user(user).ts_range(range);
        assert!(plan.is_exact(), "scan {i}");
        let got: Vec<&Event> = plan
            .ranges()
            .flat_map(|r| rows.range::<[u8], _>(&r).map(|(_, v)| v))
            .collect();
        // The oracle: the stored (decoded) times in the range, in key order.
        let expected: Vec<&Event> = rows
            .values()
            .filter(|e| e.user == user && in_range(&e.ts, &range))
            .collect();
        assert_eq!(got, expected, "scan {i}: {range:?}");
        for (k, e) in rows.iter().step_by(31) {
            let want = e.user == user && in_range(&e.ts, &range);
            assert_eq!(plan.matches(k), want, "scan {i}: matches");
        }
    }
    // Equality binds a time as it is written: every row is found by the time it was written with.
    for e in written.iter().step_by(17) {
        let plan = Event::scan().user(e.user).ts(e.ts).seq(e.seq);
        let key = e.to_vec().unwrap();
        let found: Vec<&Vec<u8>> = plan
            .ranges()
            .flat_map(|r| rows.range::<[u8], _>(&r).map(|(k, _)| k))
            .collect();
        assert_eq!(found, [&key], "{e:?}");
    }
}

/// `explain` shows a time as its date (RFC 3339, UTC), as the schema and the `rowkey` command
/// do, not as `SystemTime`'s `Debug` (the platform's seconds and nanoseconds); an `Option` of
/// one as `Some(date)`. The dates were computed by GNU `date -u -d @1700000000.250`.
#[test]
fn explain_shows_times_as_dates() {
    #[derive(RowKey, Debug)]
    struct Shown {
        at: SystemTime,
        #[rowkey(unit = "us")]
        maybe: Option<SystemTime>,
        gone: Option<SystemTime>,
    }
    let key = Shown {
        at: UNIX_EPOCH + Duration::from_millis(1_700_000_000_250),
        maybe: Some(UNIX_EPOCH + Duration::from_micros(1_700_000_000_000_001)),
        gone: None,
    }
    .to_vec()
    .unwrap();
    let values: Vec<String> = Shown::explain(&key)
        .unwrap()
        .rows
        .into_iter()
        .map(|r| r.value)
        .collect();
    assert_eq!(
        values,
        [
            "2023-11-14T22:13:20.250Z",
            "Some(2023-11-14T22:13:20.000001Z)",
            "None"
        ]
    );
}
