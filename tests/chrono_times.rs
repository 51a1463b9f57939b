//! chrono's types as time fields (feature `chrono`, DESIGN section 9): `DateTime<Utc>`,
//! `NaiveDateTime` (as UTC), `NaiveDate` (its midnight) and `NaiveTime` (since midnight) write the
//! bytes Java writes for their count of units, computed by the JDK (tests/java/TimeKeys.java);
//! key order is time order (proptest); a date decodes only from a whole day; leap seconds and
//! times before the epoch are refused; range scans with bounds between whole units against a
//! brute-force filter.

use std::collections::BTreeMap;
use std::ops::Bound;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Utc};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rowkey::RowKey;

mod common;
#[path = "common/java.rs"]
mod java;
use common::{in_range, Rng};
use java::{hex, java};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Instants {
    at: DateTime<Utc>,
    #[rowkey(desc, unit = "us")]
    local: NaiveDateTime,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Days {
    #[rowkey(unit = "s")]
    day: NaiveDate,
    #[rowkey(desc)]
    time: NaiveTime,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Text {
    #[rowkey(desc)]
    at: DateTime<Utc>,
}

fn utc(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap()
}

#[test]
fn keys_are_the_bytes_java_writes() {
    let ms = [0i64, 1, 1_686_465_031_123, 4_102_444_800_000];
    let micros: Vec<i64> = ms.iter().map(|m| m * 1_000 + 7).collect();
    let days = [0i64, 19_519]; // 1970-01-01 and 2023-06-11
    let time_ms = 6 * 3_600_000 + 30 * 60_000 + 31 * 1_000 + 123; // 06:30:31.123
    let mut counts = ms.to_vec();
    counts.extend(&micros);
    counts.extend(days.iter().map(|d| d * 86_400));
    counts.push(time_ms);
    let java = java(&counts);
    let (java_ms, rest) = java.split_at(ms.len());
    let (java_us, rest) = rest.split_at(micros.len());
    let (java_days, java_time) = rest.split_at(days.len());
    for (i, &m) in ms.iter().enumerate() {
        let at = utc(m);
        let local = DateTime::from_timestamp_micros(micros[i])
            .unwrap()
            .naive_utc();
        let key = Instants { at, local }.to_vec().unwrap();
        assert_eq!(hex(&key[..8]), java_ms[i][0], "DateTime<Utc> {m} ms");
        assert_eq!(
            hex(&key[8..]),
            java_us[i][1],
            "desc NaiveDateTime {} us",
            micros[i]
        );
        assert_eq!(Instants::decode(&key).unwrap(), Instants { at, local });
        let text = Text { at }.to_vec().unwrap();
        assert_eq!(text, java_ms[i][3].as_bytes(), "text desc {m}");
        assert_eq!(Text::decode(&text).unwrap().at, at);
    }
    let time = NaiveTime::from_hms_milli_opt(6, 30, 31, 123).unwrap();
    for (i, &d) in days.iter().enumerate() {
        let day = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap() + TimeDelta::days(d);
        let key = Days { day, time }.to_vec().unwrap();
        assert_eq!(hex(&key[..8]), java_days[i][0], "NaiveDate {day}");
        assert_eq!(hex(&key[8..]), java_time[0][1], "desc NaiveTime {time}");
        assert_eq!(Days::decode(&key).unwrap(), Days { day, time });
    }
}

#[test]
fn dates_decode_only_from_whole_days_and_bad_times_are_refused() {
    // One second past midnight, written as a count of seconds: no date.
    let mut key = 86_401u64.to_be_bytes().to_vec();
    key.extend((i64::MAX as u64).to_be_bytes());
    assert!(Days::decode(&key).is_err());
    let before = utc(-1);
    let local = before.naive_utc();
    assert!(Instants { at: before, local }.to_vec().is_err());
    let leap = NaiveTime::from_hms_nano_opt(23, 59, 59, 1_500_000_000).unwrap();
    let day = NaiveDate::from_ymd_opt(2016, 12, 31).unwrap();
    assert!(Days { day, time: leap }.to_vec().is_err());
    assert_eq!(
        Days::LAYOUT.segments[0].encoding.to_string(),
        "count of s since the Unix epoch, 8 bytes big-endian (Java's Bytes.toBytes(long))"
    );
}

#[test]
fn key_order_is_time_order() {
    let config = Config {
        cases: common::scaled(10_000, 1_000_000) as u32,
        failure_persistence: None,
        ..Config::default()
    };
    let nanos = prop_oneof![0i64..4_000_000_000, 0i64..(1 << 62)];
    TestRunner::new(config)
        .run(&(nanos.clone(), nanos), |(a, b)| {
            let (ta, tb) = (
                DateTime::from_timestamp_nanos(a),
                DateTime::from_timestamp_nanos(b),
            );
            let key = |t: DateTime<Utc>| {
                Instants {
                    at: t,
                    local: t.naive_utc(),
                }
                .to_vec()
                .unwrap()
            };
            // Whole milliseconds first, then the desc microseconds.
            let order = (a / 1_000_000)
                .cmp(&(b / 1_000_000))
                .then((b / 1_000).cmp(&(a / 1_000)));
            prop_assert_eq!(key(ta).cmp(&key(tb)), order);
            Ok(())
        })
        .unwrap();
}

#[test]
fn range_scans_keep_exactly_the_stored_times() {
    let mut rng = Rng(91);
    let time = |rng: &mut Rng| DateTime::from_timestamp_nanos(rng.below(5_000_000_000) as i64);
    let rows: BTreeMap<Vec<u8>, Instants> = (0..3_000)
        .map(|_| {
            let t = time(&mut rng);
            let key = Instants {
                at: t,
                local: t.naive_utc(),
            }
            .to_vec()
            .unwrap();
            (key.clone(), Instants::decode(&key).unwrap())
        })
        .collect();
    for i in 0..300 {
        let range: (Bound<DateTime<Utc>>, Bound<DateTime<Utc>>) = rng.range(time);
        let plan = Instants::scan().at_range(range);
        let got: Vec<&Instants> = plan
            .ranges()
            .flat_map(|r| rows.range::<[u8], _>(&r).map(|(_, v)| v))
            .collect();
        let expected: Vec<&Instants> = rows.values().filter(|r| in_range(&r.at, &range)).collect();
        assert_eq!(got, expected, "scan {i}: {range:?}");
        assert!(plan.is_exact());
    }
}
