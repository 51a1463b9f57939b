//! Apache Phoenix as the oracle of `#[rowkey(phoenix)]` keys: `tests/java/PhoenixKeys.java`
//! creates the tables below through Phoenix 5.2.1's connectionless driver, UPSERTs edge and random
//! values, and prints the row key Phoenix builds for each (17,104 keys; the times before 1970 back to 1677). Every value is
//! encoded by rowkey to exactly Phoenix's bytes and every key decoded back to the value, and the
//! DDL Phoenix ran is the one `rowkey::phoenix::ddl` gives, and the one cell of each table's rows
//! is `rowkey::phoenix::EMPTY_CELL`. With a JDK and Maven the answers are
//! Phoenix's own, checked against the committed `tests/java/vectors/PhoenixKeys.txt`; without
//! them, the committed answers.

#[path = "common/java.rs"]
mod java;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, NaiveDateTime, NaiveTime, Utc};
use java::hex;
use rowkey::{DecodeKey, RowKey};
use rust_decimal::Decimal;

/// A value as PhoenixKeys.java prints it.
trait Token: Sized {
    fn parse(token: &str) -> Self;
}

fn unhex(token: &str) -> Vec<u8> {
    (0..token.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&token[i..i + 2], 16).unwrap())
        .collect()
}

macro_rules! decimal_tokens {
    ($($t:ty),*) => {$(
        impl Token for $t {
            fn parse(token: &str) -> Self {
                token.parse().unwrap()
            }
        }
    )*};
}
decimal_tokens!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Token for f32 {
    fn parse(token: &str) -> Self {
        f32::from_bits(u32::from_str_radix(token, 16).unwrap())
    }
}

impl Token for f64 {
    fn parse(token: &str) -> Self {
        f64::from_bits(u64::from_str_radix(token, 16).unwrap())
    }
}

impl Token for bool {
    fn parse(token: &str) -> Self {
        token == "true"
    }
}

impl Token for String {
    fn parse(token: &str) -> Self {
        String::from_utf8(unhex(token)).unwrap()
    }
}

impl Token for Vec<u8> {
    fn parse(token: &str) -> Self {
        unhex(token)
    }
}

impl<const N: usize> Token for [u8; N] {
    fn parse(token: &str) -> Self {
        unhex(token).try_into().unwrap()
    }
}

/// Times are printed as nanoseconds since the epoch (UTC); a time of day since midnight.
/// Nanoseconds since the epoch, negative before it.
fn nanos(token: &str) -> i64 {
    token.parse().unwrap()
}

impl Token for SystemTime {
    fn parse(token: &str) -> Self {
        let n = nanos(token);
        let span = Duration::from_nanos(n.unsigned_abs());
        if n < 0 {
            UNIX_EPOCH - span
        } else {
            UNIX_EPOCH + span
        }
    }
}

impl Token for DateTime<Utc> {
    fn parse(token: &str) -> Self {
        DateTime::from_timestamp_nanos(nanos(token))
    }
}

impl Token for NaiveDateTime {
    fn parse(token: &str) -> Self {
        DateTime::from_timestamp_nanos(nanos(token)).naive_utc()
    }
}

impl Token for NaiveTime {
    fn parse(token: &str) -> Self {
        let n = nanos(token);
        NaiveTime::from_num_seconds_from_midnight_opt(
            (n / 1_000_000_000) as u32,
            (n % 1_000_000_000) as u32,
        )
        .unwrap()
    }
}

impl Token for Decimal {
    fn parse(token: &str) -> Self {
        token.parse().unwrap()
    }
}

impl<T: Token> Token for Option<T> {
    fn parse(token: &str) -> Self {
        (token != "~").then(|| T::parse(token))
    }
}

/// The tables of PhoenixKeys.java, as `#[rowkey(phoenix)]` structs: for each, its name, the
/// struct's other attributes, and its fields.
macro_rules! tables {
    ($($table:ident [$($attrs:tt)*] { $($(#[$m:meta])* $field:ident : $t:ty),* $(,)? })*) => {
        $(
            #[derive(RowKey, Debug)]
            #[rowkey(phoenix $($attrs)*)]
            #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
            struct $table {
                $($(#[$m])* $field: $t,)*
            }
        )*

        /// Checks one row of table `table`: its values `tokens` and Phoenix's `key`.
        fn check_row(table: &str, tokens: &[&str], key: &[u8]) -> Result<(), String> {
            match table {
                $(stringify!($table) => {
                    let mut tokens = tokens.iter();
                    let row = $table { $($field: Token::parse(tokens.next().unwrap()),)* };
                    check(row, key)
                })*
                _ => panic!("no table {table} here"),
            }
        }

        /// rowkey's DDL of table `table`.
        fn ddl(table: &str) -> String {
            match table {
                $(stringify!($table) => rowkey::phoenix::ddl::<$table>(stringify!($table)),)*
                _ => panic!("no table {table} here"),
            }
        }
    };
}

tables! {
    INTS [] { a: i8, b: i16, c: i32, d: i64 }
    INTS_DESC [] {
        #[rowkey(desc)] a: i8, #[rowkey(desc)] b: i16, #[rowkey(desc)] c: i32, #[rowkey(desc)] d: i64,
    }
    UINTS [] { a: u8, #[rowkey(desc)] b: u16, c: u32, #[rowkey(desc)] d: u64 }
    UINTS_FLIP [] { #[rowkey(desc)] a: u8, b: u16, #[rowkey(desc)] c: u32, d: u64 }
    FLOATS [] { a: f32, b: f64, #[rowkey(desc)] c: f32, #[rowkey(desc)] d: f64 }
    BOOLS [] { a: bool, #[rowkey(desc)] b: bool, c: i32 }
    STRS [] {
        a: String, #[rowkey(desc)] b: String, c: Option<String>, #[rowkey(desc)] d: Option<String>,
    }
    STRS_LAST_DESC [] { #[rowkey(desc)] a: String, #[rowkey(desc)] b: String }
    NULL_COLUMNS [] {
        a: Option<String>, #[rowkey(desc)] b: Option<String>, c: i32, d: Option<String>,
        #[rowkey(desc)] e: Option<String>, f: Option<String>,
    }
    CHARS [] { #[rowkey(width = 4)] a: String, #[rowkey(width = 3, desc)] b: String, c: String }
    BINS [] { a: [u8; 4], #[rowkey(desc)] b: [u8; 2], c: Vec<u8> }
    SALTED [, salt(buckets = 8)] { a: String, #[rowkey(desc)] b: i64, #[rowkey(desc)] c: Option<String> }
    SALTED_WIDE [, salt(buckets = 256)] { a: i32, b: Option<String> }
    // Times before 1970 (back to 1677, as far as the oracle's long of nanoseconds goes), in each
    // type a DATE or TIMESTAMP column takes.
    TIMES_BEFORE_1970 [] {
        a: SystemTime,
        #[rowkey(desc, unit = "ns")] b: DateTime<Utc>,
        #[rowkey(unit = "ns")] c: NaiveDateTime,
        #[rowkey(desc)] d: DateTime<Utc>,
    }
    TIMES [] {
        a: SystemTime,
        #[rowkey(desc, unit = "ns")] b: DateTime<Utc>,
        c: NaiveTime,
        #[rowkey(unit = "ns")] d: SystemTime,
        #[rowkey(desc)] e: SystemTime,
    }
    DECIMALS [] {
        a: Decimal, #[rowkey(desc)] b: Decimal, c: Option<Decimal>, #[rowkey(desc)] d: Option<Decimal>,
    }
    MIXED [, salt(buckets = 3)] {
        #[rowkey(desc)] a: String, b: i32, #[rowkey(desc)] c: Option<String>, d: f64,
        #[rowkey(desc)] e: bool,
    }
}

/// rowkey writes `row` as Phoenix's `key`, and reads `key` back as `row`.
fn check<K>(row: K, key: &[u8]) -> Result<(), String>
where
    K: RowKey + for<'k> DecodeKey<'k> + std::fmt::Debug,
{
    let ours = row.to_vec().map_err(|e| format!("{row:?}: {e}"))?;
    if ours != key {
        return Err(format!(
            "{row:?}: rowkey writes {}, Phoenix {}",
            hex(&ours),
            hex(key)
        ));
    }
    let back = K::decode(key).map_err(|e| format!("{}: {e}", hex(key)))?;
    if format!("{back:?}") != format!("{row:?}") {
        return Err(format!(
            "{}: rowkey reads {back:?}, Phoenix wrote {row:?}",
            hex(key)
        ));
    }
    Ok(())
}

#[test]
fn every_key_phoenix_builds_is_the_key_rowkey_writes_and_reads() {
    let answer = java::run_on_maven("PhoenixKeys", "phoenix");
    let (mut keys, mut refused, mut tables) = (0, Vec::new(), 0);
    let mut wrong = Vec::new();
    let mut cells = 0;
    let mut unsigned_doubles: Vec<(f64, Vec<u8>)> = Vec::new();
    let mut decimals_beyond = 0;
    for line in answer.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields[0] == "#CELLS" {
            // A row of key columns alone holds Phoenix's empty cell, and nothing else.
            let cell = rowkey::phoenix::EMPTY_CELL;
            let want = format!(
                "{}:{}={}",
                hex(cell.family),
                hex(cell.qualifier),
                hex(cell.value)
            );
            assert_eq!(
                fields[2..],
                [want.as_str()],
                "the cells of a row of {}",
                fields[1]
            );
            cells += 1;
            continue;
        }
        if fields[..2] == ["#QUIRK", "UNSIGNED_DOUBLE"] {
            // UNSIGNED_DOUBLE, which no Rust field maps to (and `lock_from_ddl` refuses): Phoenix
            // takes -0.0 and stores its raw bits, which sort after every positive value.
            let value = f64::from_bits(u64::from_str_radix(fields[2], 16).unwrap());
            unsigned_doubles.push((value, unhex(fields[3])));
            continue;
        }
        if fields[..2] == ["#QUIRK", "DECIMAL"] {
            // Phoenix's DECIMAL holds 38 digits, rust_decimal's 28: a key of a value beyond
            // those is an error to decode, never another value; one within them reads back.
            let key = unhex(fields[3]);
            let digits = fields[2]
                .chars()
                .filter(char::is_ascii_digit)
                .skip_while(|&c| c == '0')
                .count();
            if digits <= 28 {
                let d: Decimal = fields[2].parse().unwrap();
                assert_eq!(
                    QUIRK_DECIMAL::decode(&key).map(|k| k.a),
                    Ok(d),
                    "{}",
                    fields[2]
                );
            } else {
                assert!(QUIRK_DECIMAL::decode(&key).is_err(), "{}", fields[2]);
                decimals_beyond += 1;
            }
            continue;
        }
        if fields[0] == "#TABLE" {
            tables += 1;
            assert_eq!(
                ddl(fields[1]),
                fields[2].replace("\\n", "\n"),
                "the DDL of {}",
                fields[1]
            );
            continue;
        }
        let (table, rest) = (fields[0], &fields[1..]);
        let (values, key) = rest.split_at(rest.len() - 1);
        if let Some(why) = key[0].strip_prefix('!') {
            refused.push((table, values.to_vec(), why));
            continue;
        }
        keys += 1;
        if let Err(e) = check_row(table, values, &unhex(key[0])) {
            wrong.push(format!("{table}: {e}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {keys} keys differ, the first:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(10)].join("\n")
    );
    assert_eq!(tables, 17);
    assert_eq!(cells, tables);
    assert!(keys >= 10_000, "only {keys} keys");
    // Phoenix takes no NaN or infinity through a bound FLOAT or DOUBLE (it converts the value
    // through BigDecimal); every refused row has one, and no other row does.
    let special = |v: &&str| {
        let bits = u64::from_str_radix(v, 16).unwrap();
        match v.len() {
            8 => f32::from_bits(bits as u32).is_finite(),
            16 => f64::from_bits(bits).is_finite(),
            _ => true,
        }
    };
    for (table, values, why) in &refused {
        assert_eq!(*why, "NumberFormatException", "{table} {values:?}");
        let floats: Vec<&&str> = match *table {
            "FLOATS" => values.iter().collect(),
            "MIXED" => vec![&values[3]],
            other => panic!("Phoenix refused a row of {other}: {values:?}"),
        };
        assert!(
            floats.iter().any(|v| !special(v)),
            "{table} {values:?} has no NaN or infinity"
        );
    }
    assert!(!refused.is_empty());
    let key_of = |v: f64| {
        let (_, key) = unsigned_doubles
            .iter()
            .find(|(d, _)| d.to_bits() == v.to_bits())
            .unwrap_or_else(|| panic!("no UNSIGNED_DOUBLE {v:?} in {unsigned_doubles:?}"));
        key.clone()
    };
    assert_eq!(key_of(0.0), 0f64.to_bits().to_be_bytes());
    assert_eq!(key_of(-0.0), (-0f64).to_bits().to_be_bytes());
    assert!(key_of(-0.0) > key_of(f64::MAX) && key_of(f64::MAX) > key_of(1.0));
    assert_eq!(decimals_beyond, 3);
}

/// The quirk table of Phoenix's 38-digit DECIMAL.
#[derive(RowKey, Debug)]
#[rowkey(phoenix)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
struct QUIRK_DECIMAL {
    a: Decimal,
}
