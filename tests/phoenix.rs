//! `#[rowkey(phoenix)]` beyond the bytes Phoenix was seen to write (tests/phoenix_vectors.rs):
//! what Phoenix cannot hold is an error that says why, keys Phoenix would not write are refused
//! when read, and random rows round-trip and sort as Phoenix orders them.

use std::cmp::Ordering;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rowkey::{DecodeErrorKind, EncodeErrorKind, RowKey};

mod common;

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Row {
    host: String,
    #[rowkey(desc)]
    path: String,
    port: u32,
    note: Option<String>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix, salt(buckets = 4))]
struct Salted {
    a: Option<String>,
    #[rowkey(desc)]
    b: Option<String>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Fixed {
    #[rowkey(width = 3)]
    code: String,
    id: u8,
    payload: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Floats {
    x: f64,
}

fn row(host: &str, path: &str, port: u32, note: Option<&str>) -> Row {
    Row {
        host: host.into(),
        path: path.into(),
        port,
        note: note.map(Into::into),
    }
}

/// What writing a key gave.
type Written = Result<Vec<u8>, rowkey::EncodeError>;

#[test]
fn values_phoenix_cannot_hold_are_errors_that_say_why() {
    let not_in_phoenix = |r: Written| match r.map_err(|e| e.kind()) {
        Err(EncodeErrorKind::NotInPhoenix(why)) => why,
        other => panic!("{other:?}"),
    };
    let cases: &[(&str, Written, &str)] = &[
        ("an empty VARCHAR", row("", "p", 1, None).to_vec(), "NULL"),
        ("Some(\"\")", row("h", "p", 1, Some("")).to_vec(), "NULL"),
        (
            "U+0000 in a VARCHAR another column follows",
            row("a\0b", "p", 1, None).to_vec(),
            "separator",
        ),
        (
            "U+0000 in a DESC VARCHAR",
            row("h", "a\0", 1, None).to_vec(),
            "separator",
        ),
        (
            "an UNSIGNED_INT above i32::MAX",
            row("h", "p", 1 << 31, None).to_vec(),
            "UNSIGNED",
        ),
        (
            "a CHAR that is not ASCII",
            Fixed {
                code: "é".into(),
                id: 1,
                payload: vec![1],
            }
            .to_vec(),
            "ASCII",
        ),
        (
            "an empty VARBINARY",
            Fixed {
                code: "a".into(),
                id: 1,
                payload: vec![],
            }
            .to_vec(),
            "NULL",
        ),
        (
            "a key NULL in every column",
            Salted { a: None, b: None }.to_vec(),
            "every column",
        ),
    ];
    for (what, result, says) in cases {
        let why = not_in_phoenix(result.clone());
        assert!(why.contains(says), "{what}: {why}");
    }
    let kind = |r: Written| r.unwrap_err().kind();
    let long = Fixed {
        code: "abcd".into(),
        id: 1,
        payload: vec![1],
    };
    assert_eq!(kind(long.to_vec()), EncodeErrorKind::TooWide { width: 3 });
    let padded = Fixed {
        code: "a ".into(),
        id: 1,
        payload: vec![1],
    };
    assert_eq!(kind(padded.to_vec()), EncodeErrorKind::EndsWithPad);
    // The last ascending VARCHAR ends the key: U+0000 in it is Phoenix's to hold.
    let last = row("h", "p", 1, Some("a\0b"));
    assert_eq!(Row::decode(&last.to_vec().unwrap()).unwrap(), last);
}

#[test]
fn keys_phoenix_would_not_write_are_refused() {
    let good = row("h", "p", 7, Some("n")).to_vec().unwrap();
    // h 00 | !p FF | 00 00 00 07 | n
    assert_eq!(good, [b'h', 0, !b'p', 0xFF, 0, 0, 0, 7, b'n']);
    let invalid = |key: &[u8]| match Row::decode(key).map_err(|e| e.kind()) {
        Err(DecodeErrorKind::Invalid(why)) => why,
        other => panic!("{key:02x?}: {other:?}"),
    };
    let mut no_ff = good.clone();
    no_ff.truncate(3); // h 00 !p: the DESC column's FF is missing
    assert!(invalid(&no_ff).contains("FF"));
    let mut high = good.clone();
    high[4] = 0x80; // an UNSIGNED_INT above i32::MAX
    assert!(invalid(&high).contains("UNSIGNED"));
    let mut null_host = good.clone();
    null_host.remove(0); // NULL in the NOT NULL host
    assert!(invalid(&null_host).contains("NULL"));
    // The salt byte is Phoenix's: another one is refused.
    let mut salted = Salted {
        a: Some("x".into()),
        b: None,
    }
    .to_vec()
    .unwrap();
    assert_eq!(salted, [3, b'x']); // abs((31 + 'x') % 4)
    salted[0] = 2;
    assert!(matches!(
        Salted::decode(&salted).map_err(|e| e.kind()),
        Err(DecodeErrorKind::WrongSalt { .. })
    ));
    // Phoenix leaves trailing NULLs out with the 00 before them: 'x' 00 is not its key of
    // ('x', NULL), though its salt byte (abs((31 * (31 + 'x') + 0) % 4) = 1) is right.
    assert!(matches!(
        Salted::decode(&[1, b'x', 0x00]).map_err(|e| e.kind()),
        Err(DecodeErrorKind::Invalid(why)) if why.contains("trailing NULLs")
    ));
    // Nor is a key NULL in every column, or a NaN other than Java's.
    assert!(Salted::decode(&[1]).is_err());
    let mut key = Floats { x: f64::NAN }.to_vec().unwrap();
    assert_eq!(
        key,
        (0x7ff8_0000_0000_0000u64 ^ (1 << 63))
            .wrapping_add(1)
            .to_be_bytes()
    );
    assert!(Floats::decode(&key).unwrap().x.is_nan());
    key[7] ^= 0x10; // another NaN's bits
    assert!(matches!(
        Floats::decode(&key).map_err(|e| e.kind()),
        Err(DecodeErrorKind::Invalid(why)) if why.contains("NaN")
    ));
    // A CHAR of spaces is NULL, and a CHAR holds ASCII alone.
    assert!(Fixed::decode(b"   \x01\x01").is_err());
    assert!(Fixed::decode(b"\xc3\xa9 \x01\x01").is_err());
    assert_eq!(Fixed::decode(b"ab \x01\x01").unwrap().code, "ab");
    // No input makes decoding panic.
    for len in 0..6 {
        for seed in 0..2_000u32 {
            let key: Vec<u8> = (0..len)
                .map(|i| (seed.wrapping_mul(2_654_435_761) >> (i * 5)) as u8)
                .collect();
            let _ = Row::decode(&key);
            let _ = Salted::decode(&key);
            let _ = Fixed::decode(&key);
        }
    }
}

/// The property runner of this file: 10,000 cases, a million under `ROWKEY_SOAK=1`.
fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: common::scaled(10_000, 1_000_000) as u32,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Phoenix's order of rows: each column by its value (descending for `path`), a NULL before
/// every value.
fn phoenix_order(a: &Row, b: &Row) -> Ordering {
    a.host
        .cmp(&b.host)
        .then_with(|| b.path.cmp(&a.path))
        .then_with(|| a.port.cmp(&b.port))
        .then_with(|| a.note.cmp(&b.note))
}

#[test]
fn random_rows_round_trip_and_sort_as_phoenix_orders_them() {
    // Strings from a few characters (one a prefix of another, U+0001 below every letter,
    // multi-byte ones), so that ties and prefixes are common.
    let text = || {
        proptest::collection::vec(
            prop::sample::select(vec!["a", "b", "\u{1}", "é", "日"]),
            1..4,
        )
        .prop_map(|v| v.concat())
    };
    let rows = (
        text(),
        text(),
        prop_oneof![Just(0u32), Just(i32::MAX as u32), 0u32..1000],
        proptest::option::of(text()),
    )
        .prop_map(|(host, path, port, note)| Row {
            host,
            path,
            port,
            note,
        });
    let mut runner = runner();
    runner
        .run(&(rows.clone(), rows), |(a, b)| {
            let (ka, kb) = (a.to_vec().unwrap(), b.to_vec().unwrap());
            prop_assert_eq!(ka.len(), a.encoded_len());
            prop_assert_eq!(&Row::decode(&ka).unwrap(), &a);
            prop_assert_eq!(ka.cmp(&kb), phoenix_order(&a, &b), "{:?} {:?}", a, b);
            Ok(())
        })
        .unwrap();
}

#[test]
fn explain_shows_each_column_of_a_phoenix_key() {
    let key = row("h", "p", 7, Some("n")).to_vec().unwrap();
    let shown = Row::explain(&key).unwrap().to_string();
    // Each column's own bytes beside its value, without the separators between them.
    for line in [
        "host  h                 \"h\"",
        "path  \\x8F              \"p\"",
        "port  \\x00\\x00\\x00\\x07  7",
        "note  n                 Some(\"n\")",
    ] {
        assert!(shown.contains(line), "{line} in\n{shown}");
    }
}

#[cfg(feature = "decimal")]
mod decimal {
    use proptest::prelude::*;
    use rowkey::RowKey;
    use rust_decimal::Decimal;

    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(phoenix)]
    struct Price {
        amount: Decimal,
        #[rowkey(desc)]
        other: Option<Decimal>,
    }

    #[test]
    fn phoenix_decimals_round_trip_and_sort_by_value() {
        let decimal = (any::<i64>(), 0u32..=28).prop_map(|(m, s)| Decimal::new(m, s));
        let rows = (decimal.clone(), proptest::option::of(decimal))
            .prop_map(|(amount, other)| Price { amount, other });
        let mut runner = super::runner();
        runner
            .run(&(rows.clone(), rows), |(a, b)| {
                let (ka, kb) = (a.to_vec().unwrap(), b.to_vec().unwrap());
                prop_assert_eq!(ka.len(), a.encoded_len());
                let back = Price::decode(&ka).unwrap();
                // Equal values, without the trailing zeros Phoenix drops.
                prop_assert_eq!(back.amount, a.amount);
                prop_assert_eq!(back.other, a.other);
                // Phoenix's order: `amount`, then `other` descending, NULL first.
                let order = a
                    .amount
                    .cmp(&b.amount)
                    .then_with(|| match (a.other, b.other) {
                        (None, None) => std::cmp::Ordering::Equal,
                        (None, Some(_)) => std::cmp::Ordering::Less,
                        (Some(_), None) => std::cmp::Ordering::Greater,
                        (Some(x), Some(y)) => y.cmp(&x),
                    });
                prop_assert_eq!(ka.cmp(&kb), order, "{:?} {:?}", a, b);
                Ok(())
            })
            .unwrap();
        for len in 0..6 {
            for seed in 0..5_000u32 {
                let key: Vec<u8> = (0..len)
                    .map(|i| (seed.wrapping_mul(2_654_435_761) >> (i * 5)) as u8)
                    .collect();
                let _ = Price::decode(&key);
            }
        }
    }
}

#[cfg(feature = "schema")]
mod lock {
    use rowkey::lock::{self, ChangeKind, LockError, Verdict};
    use rowkey::RowKey;

    #[derive(RowKey, Debug)]
    #[rowkey(phoenix)]
    struct Visit {
        site: String,
        #[rowkey(desc)]
        at: i64,
    }

    mod binary {
        /// The same fields in rowkey's binary format.
        #[derive(rowkey::RowKey, Debug)]
        pub struct Visit {
            pub site: String,
            #[rowkey(desc)]
            pub at: i64,
        }
    }

    #[test]
    fn a_phoenix_layout_is_locked_and_a_change_of_format_breaks_the_lock() {
        let samples = [Visit {
            site: "a".into(),
            at: 1,
        }];
        assert_eq!(Visit::LAYOUT.format, rowkey::KeyFormat::Phoenix);
        let text = lock::render(&samples).unwrap();
        assert!(
            text.contains(r#"layout name="Visit" format=phoenix "#),
            "{text}"
        );
        let path = std::env::temp_dir().join(format!("rowkey-phoenix-{}.lock", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        assert!(matches!(
            lock::check(&path, &samples),
            Ok(Verdict::Unchanged)
        ));
        // The same fields in the binary format store other bytes: the lock says so.
        let binary = [binary::Visit {
            site: "a".into(),
            at: 1,
        }];
        match lock::check(&path, &binary) {
            Err(LockError::Incompatible { changes, .. }) => {
                assert!(
                    changes.iter().any(|c| c.kind == ChangeKind::FormatChanged),
                    "{changes:?}"
                );
            }
            other => panic!("{other:?}"),
        }
        // rowkey::schema reads the lock's keys as Phoenix's (tests/schema.rs holds it to the
        // derive): the NULL-free key of a site and a time.
        let schema = rowkey::schema::Schema::parse(&text).unwrap();
        let key = schema
            .encode(&[
                ("site", rowkey::schema::Value::Str("a".into())),
                ("at", rowkey::schema::Value::Signed(1)),
            ])
            .unwrap();
        assert_eq!(key, samples[0].to_vec().unwrap());
        let _ = std::fs::remove_file(&path);
    }
}
