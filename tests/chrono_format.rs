//! chrono times written with a `format` in text layouts (DESIGN section 9): the message key
//! `230611:063031:1231231` from typed date and time fields, texts checked against what Java's
//! `DateTimeFormatter` writes (the JDK computes them), key order equal to time order for formats
//! that sort (proptest), round trips, decode errors, the years a format cannot hold, and scans:
//! ranges on ordered formats against a brute-force filter, equality on the others.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use rowkey::{DecodeErrorKind, EncodeErrorKind, RowKey, Scan};

mod common;
use common::{in_range, Rng};

#[path = "common/java.rs"]
mod java;

/// The message key: a date, a time of day, then a 7-digit id.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Message {
    #[rowkey(format = "%y%m%d")]
    day: NaiveDate,
    #[rowkey(format = "%H%M%S")]
    time: NaiveTime,
    #[rowkey(width = 7)]
    id: u32,
}

/// Formats that sort as times do, on the three dated types and a time of day.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = "|")]
struct Ordered {
    #[rowkey(format = "%Y%m%d%H%M%S")]
    at: DateTime<Utc>,
    #[rowkey(format = "%F %T%.3f")]
    local: NaiveDateTime,
    #[rowkey(format = "%Y%j")]
    day: NaiveDate,
    #[rowkey(format = "%H:%M:%S%.6f")]
    time: NaiveTime,
}

/// A day-first format: only equality scans.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = "-")]
struct DayFirst {
    host: String,
    #[rowkey(format = "%d%m%Y")]
    day: NaiveDate,
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

#[test]
fn the_message_key_is_written_as_java_formats_it() {
    let m = Message {
        day: date(2023, 6, 11),
        time: NaiveTime::from_hms_opt(6, 30, 31).unwrap(),
        id: 1_231_231,
    };
    assert_eq!(m.to_vec().unwrap(), b"230611:063031:1231231");
    assert_eq!(Message::decode(b"230611:063031:1231231").unwrap(), m);
    assert_eq!(Message::LEN, 6 + 1 + 6 + 1 + 7);
    // Random instants, against the JDK.
    let mut rng = Rng(17);
    let instants: Vec<(i64, u32)> = (0..200)
        .map(|_| {
            (
                rng.below(3_100_000_000) as i64,
                rng.below(1_000_000_000) as u32,
            )
        })
        .collect();
    let java_days = java::java_format("yyMMdd", &instants);
    let java_times = java::java_format("HHmmss", &instants);
    let java_full = java::java_format("yyyy-MM-dd HH:mm:ss.SSS", &instants);
    for (i, &(secs, nanos)) in instants.iter().enumerate() {
        let t = DateTime::from_timestamp(secs, nanos).unwrap();
        let m = Message {
            day: t.date_naive(),
            time: t.time(),
            id: 7,
        };
        let key = String::from_utf8(m.to_vec().unwrap()).unwrap();
        assert_eq!(key, format!("{}:{}:0000007", java_days[i], java_times[i]));
        let o = Ordered {
            at: t,
            local: t.naive_utc(),
            day: t.date_naive(),
            time: t.time(),
        };
        let key = String::from_utf8(o.to_vec().unwrap()).unwrap();
        let local: Vec<&str> = key.split('|').collect();
        assert_eq!(local[1], java_full[i], "{t}");
    }
}

#[test]
fn formats_that_lose_nothing_round_trip_and_sort_as_times() {
    let cases = common::scaled(10_000, 1_000_000) as u32;
    // Years 1 to 9999: %Y writes four digits.
    let instant = (-62_000_000_000i64..253_000_000_000, 0u32..1_000_000_000);
    TestRunner::new(common::proptest_config(cases))
        .run(&(instant.clone(), instant), |((s1, n1), (s2, n2))| {
            let make = |s: i64, n: u32| {
                let t = DateTime::from_timestamp(s, n).unwrap();
                Ordered {
                    // Whole seconds, milliseconds, days and microseconds: what each format keeps.
                    at: t.with_nanosecond(0).unwrap(),
                    local: t
                        .naive_utc()
                        .with_nanosecond(n / 1_000_000 * 1_000_000)
                        .unwrap(),
                    day: t.date_naive(),
                    time: t.time().with_nanosecond(n / 1_000 * 1_000).unwrap(),
                }
            };
            let (a, b) = (make(s1, n1), make(s2, n2));
            let (ka, kb) = (a.to_vec().unwrap(), b.to_vec().unwrap());
            prop_assert_eq!(Ordered::decode(&ka).unwrap(), a.clone());
            prop_assert_eq!(ka.len(), Ordered::LEN);
            // The first segment alone orders the keys by `at`; ties by the rest.
            let order = (a.at.cmp(&b.at))
                .then(a.local.cmp(&b.local))
                .then(a.day.cmp(&b.day))
                .then(a.time.cmp(&b.time));
            prop_assert_eq!(ka.cmp(&kb), order);
            Ok(())
        })
        .unwrap();
}

#[test]
fn years_a_format_cannot_write_are_errors() {
    // %y reads back as 1970 to 2069.
    let m = |y| Message {
        day: date(y, 1, 1),
        time: NaiveTime::MIN,
        id: 1,
    };
    assert!(m(1970).to_vec().is_ok() && m(2069).to_vec().is_ok());
    for y in [1969, 2070, 2100] {
        let err = m(y).to_vec().unwrap_err();
        assert!(
            matches!(err.kind(), EncodeErrorKind::Unsupported(_)),
            "{y}: {err}"
        );
        assert_eq!(err.field(), "day");
    }
    let far = DayFirst {
        host: "a".into(),
        day: date(10_000, 1, 1),
    };
    let err = far.to_vec().unwrap_err();
    assert!(err.to_string().contains("longer"), "{err}"); // +10000
}

#[test]
fn malformed_times_are_decode_errors() {
    for bad in [
        &b"231311:063031:1231231"[..], // month 13
        b"2306x1:063031:1231231",
        b"230611:246031:1231231", // hour 24
        b"230611:06303",
        b"23061 :063031:1231231",
    ] {
        let err = Message::decode(bad).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                DecodeErrorKind::InvalidText(_) | DecodeErrorKind::Truncated { .. }
            ),
            "{}: {err}",
            String::from_utf8_lossy(bad)
        );
    }
    let cases = common::scaled(20_000, 1_000_000) as u32;
    TestRunner::new(common::proptest_config(cases))
        .run(&proptest::collection::vec(0u8..12, 0..24), |digits| {
            let text: Vec<u8> = digits
                .iter()
                .map(|d| b"0123456789: "[usize::from(*d)])
                .collect();
            common::decodes_to_its_own_key::<Message>(&text).map_err(TestCaseError::fail)?;
            Ok(())
        })
        .unwrap();
}

#[test]
fn layout_describes_the_format() {
    let table = Message::LAYOUT.to_string();
    assert!(
        table.contains("| 0 | day | `NaiveDate` | 0 | 6 | the time as chrono formats it with \"%y%m%d\", 6 characters | asc |"),
        "{table}"
    );
    let key = Message {
        day: date(2023, 6, 11),
        time: NaiveTime::from_hms_opt(6, 30, 31).unwrap(),
        id: 1,
    }
    .to_vec()
    .unwrap();
    let explained = Message::explain(&key).unwrap();
    assert_eq!(explained.rows[0].bytes, "230611");
    assert_eq!(explained.rows[0].value, "2023-06-11");
}

/// A plan, and the predicate over values it must agree with.
type Query = (Scan<Message>, Box<dyn Fn(&Message) -> bool>);

#[test]
fn ranges_on_ordered_formats_and_equality_on_the_others() {
    let mut rng = Rng(23);
    let mut rows: BTreeMap<Vec<u8>, Message> = BTreeMap::new();
    let mut days: BTreeMap<Vec<u8>, DayFirst> = BTreeMap::new();
    for _ in 0..3_000 {
        let m = Message {
            day: date(
                1995 + rng.below(10) as i32,
                1 + rng.below(12) as u32,
                1 + rng.below(28) as u32,
            ),
            time: NaiveTime::from_hms_opt(rng.below(24) as u32, rng.below(60) as u32, 0).unwrap(),
            id: rng.below(5) as u32,
        };
        rows.insert(m.to_vec().unwrap(), m.clone());
        let d = DayFirst {
            host: ["a", "b"][rng.index(2)].into(),
            day: m.day,
        };
        days.insert(d.to_vec().unwrap(), d);
    }
    let all: Vec<&Message> = rows.values().collect();
    for i in 0..300 {
        let pick = all[rng.index(all.len())].clone();
        // Times between two picked ones, one with seconds the stored times do not have.
        let (t1, t2) = (
            all[rng.index(all.len())]
                .time
                .with_second(rng.below(60) as u32)
                .unwrap(),
            all[rng.index(all.len())].time,
        );
        let times = rng.range(|r| if r.below(2) == 0 { t1 } else { t2 });
        let (plan, pred): Query = if i % 2 == 0 {
            (
                Message::scan().day(pick.day).time_range(times).into(),
                Box::new(move |m| m.day == pick.day && in_range(&m.time, &times)),
            )
        } else {
            let d1 = all[rng.index(all.len())].day;
            (
                Message::scan().day_in([pick.day, d1]).into(),
                Box::new(move |m| m.day == pick.day || m.day == d1),
            )
        };
        let got: Vec<&Message> = plan
            .ranges()
            .flat_map(|r| rows.range::<[u8], _>(&r).map(|(_, v)| v))
            .filter(|m| plan.matches(&m.to_vec().unwrap()))
            .collect();
        let expected: Vec<&Message> = rows.values().filter(|m| pred(m)).collect();
        assert!(
            got == expected,
            "scan {i}: {plan:?}: {} rows, wanted {}",
            got.len(),
            expected.len()
        );
        // Day-first keys: equality finds them, though their order is not the days'.
        let d: Scan<DayFirst> = DayFirst::scan().host("a").day(pick.day).into();
        let got: Vec<&DayFirst> = d
            .ranges()
            .flat_map(|r| days.range::<[u8], _>(&r).map(|(_, v)| v))
            .collect();
        let expected: Vec<&DayFirst> = days
            .values()
            .filter(|v| v.host == "a" && v.day == pick.day)
            .collect();
        assert_eq!(got, expected, "day-first scan {i}");
    }
}

/// Minutes: a format that keeps less than the values have.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text)]
struct Minutes {
    #[rowkey(format = "%Y%m%d%H%M")]
    at: NaiveDateTime,
}

#[test]
fn a_format_coarser_than_the_values_keeps_exactly_the_stored_times_in_a_range() {
    let mut rng = Rng(29);
    let day = date(2024, 2, 29);
    let time = |r: &mut Rng| {
        day.and_hms_opt(10, r.below(4) as u32, r.below(60) as u32)
            .unwrap()
    };
    let mut rows: BTreeMap<Vec<u8>, Minutes> = BTreeMap::new();
    for _ in 0..200 {
        let m = Minutes { at: time(&mut rng) };
        let key = m.to_vec().unwrap();
        // What the store holds is the time to the minute.
        let stored = Minutes::decode(&key).unwrap();
        assert_eq!(stored.at, m.at.with_second(0).unwrap());
        rows.insert(key, stored);
    }
    for i in 0..500 {
        let range = rng.range(time);
        let plan = Minutes::scan().at_range(range);
        let got: Vec<&Minutes> = plan
            .ranges()
            .flat_map(|r| rows.range::<[u8], _>(&r).map(|(_, v)| v))
            .filter(|m| plan.matches(&m.to_vec().unwrap()))
            .collect();
        let expected: Vec<&Minutes> = rows.values().filter(|m| in_range(&m.at, &range)).collect();
        assert_eq!(got, expected, "range {i}: {range:?}");
    }
}
