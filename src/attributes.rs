//! The `#[rowkey(...)]` attribute reference: every key, what it does to the bytes, and an example.
//!
//! Attributes may be split over several `#[rowkey(...)]` lines or combined in one. Misuse is a
//! compile error on the offending token; every bad attribute of a derive is reported at once.
//!
//! # On fields
//!
//! ## `width = N`
//!
//! A fixed width. Integers are narrowed to N big-endian bytes (binary) or written as N decimal
//! digits (text); strings and bytes are padded to N bytes with `00` (binary) or spaces (text). A
//! value that does not fit is an [`EncodeError`](crate::EncodeError), never truncated.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct K {
//!     #[rowkey(width = 2)]
//!     shard: u32,
//!     #[rowkey(width = 4)]
//!     code: String,
//! }
//!
//! assert_eq!(K { shard: 0x0102, code: "ab".into() }.to_vec()?, [0x01, 0x02, b'a', b'b', 0, 0]);
//! assert!(K { shard: 0x1_0000, code: "ab".into() }.to_vec().is_err());
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! ## `desc`
//!
//! The field sorts descending: every byte inverted (binary), or MAX - v (text integers). Bounds of
//! scans stay in the field's own order.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct K {
//!     #[rowkey(desc)]
//!     ts: i64,
//! }
//!
//! // For ts >= 0: the bytes of Java's Long.MAX_VALUE - ts.
//! assert_eq!(K { ts: 5 }.to_vec()?, (i64::MAX - 5).to_be_bytes());
//! assert!(K { ts: 6 }.to_vec()? < K { ts: 5 }.to_vec()?);
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! ## `reverse`
//!
//! Numbers stored as their fixed-width bytes (text: digits) reversed, strings and bytes as their
//! content reversed. It spreads sequential values over the key space and gives up the field's
//! order, so scans offer only `f(v)` and `f_in` on it. Not together with `desc`.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct K {
//!     #[rowkey(reverse)]
//!     id: u32,
//! }
//!
//! assert_eq!(K { id: 0x0102_0304 }.to_vec()?, [0x04, 0x03, 0x02, 0x01]);
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! ## `unit = "s" | "ms" | "us" | "ns"`
//!
//! On a time field (`std::time::SystemTime`; with feature `chrono`, `DateTime<Utc>`,
//! `NaiveDateTime` as UTC, `NaiveDate` as its midnight, `NaiveTime` counted from midnight): the
//! unit it is counted in since the Unix epoch (default `"ms"`). Binary layouts write the count as Java's `Bytes.toBytes(long)`, and with `desc` as
//! `Bytes.toBytes(Long.MAX_VALUE - count)`; text layouts as an `i64`'s 19 digits (`desc`: Java's
//! `String.format("%019d", Long.MAX_VALUE - ts)`). A time finer than the unit is truncated when it
//! is written; a time before the epoch is an `EncodeError`. Equality binds a time as it is
//! written, so a row is found by the time it was written with; a range keeps exactly the stored
//! times within it, whatever its bounds. On anything but a time, or an unknown unit, it is a
//! compile error on the unit.
//!
//! ```
//! use std::time::{Duration, UNIX_EPOCH};
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Event {
//!     user: u32,
//!     #[rowkey(desc)] // newest first: Bytes.toBytes(Long.MAX_VALUE - ts)
//!     ts: std::time::SystemTime,
//! }
//!
//! let ts = UNIX_EPOCH + Duration::from_millis(1_700_000_000_000);
//! let key = Event { user: 7, ts }.to_vec()?;
//! assert_eq!(key[4..], (i64::MAX - 1_700_000_000_000).to_be_bytes());
//! let last_hour = Event::scan().user(7).ts_range(ts - Duration::from_secs(3_600)..=ts);
//! assert!(last_hour.matches(&key));
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! ## `format = "..."`
//!
//! On chrono's types in a text layout (feature `chrono`): the time as chrono formats it (strftime
//! syntax) instead of its count, so `230611:063031` comes from typed date and time fields. The
//! format must write every time in the same length (the specifiers: `%Y` (4 digits), `%y`, `%m`,
//! `%d`, `%e`, `%j`, `%H`, `%k`, `%I`, `%l`, `%M`, `%S`, `%f` and `%3f`/`%6f`/`%9f`,
//! `%.3f`/`%.6f`/`%.9f`, `%b`/`%h`, `%a`, `%p`, `%u`, `%w`, `%F`, `%T`, `%R`, `%D`, `%%`, `%n`, `%t`,
//! and any other character as itself; names such as `%A` or `%B` vary and are compile errors on
//! the format), and keep
//! what the type needs to be read back (a date: year, month and day, or year and day of the year;
//! a time of day: hour and minute). Keys hold one rendering per value: decoding parses the text
//! and checks it is what the value writes. `%Y` holds years 0 to 9999 and `%y` 1970 to 2069
//! (chrono reads `70` to `99` as 19xx); another year is an `EncodeError`. A format that sorts as
//! times do (`%Y%m%d%H%M%S`, `%F %T`, `%H:%M`) scans ranges; one that does not (`%d%m%Y`, or
//! `%y`, which wraps at 2000) gives up the field's order, so only `f(v)` and `f_in` apply. Not
//! with `unit`, `width`, `desc` or `reverse`, nor in binary layouts.
//!
//! ```
//! # #[cfg(feature = "chrono")] {
//! use chrono::{NaiveDate, NaiveTime};
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! #[rowkey(text, delimiter = ":")]
//! struct Message {
//!     #[rowkey(format = "%y%m%d")]
//!     day: NaiveDate,
//!     #[rowkey(format = "%H%M%S")]
//!     time: NaiveTime,
//!     #[rowkey(width = 7)]
//!     id: u32,
//! }
//!
//! let day = NaiveDate::from_ymd_opt(2023, 6, 11).unwrap();
//! let m = Message { day, time: NaiveTime::from_hms_opt(6, 30, 31).unwrap(), id: 1_231_231 };
//! assert_eq!(m.to_vec()?, b"230611:063031:1231231");
//! let morning = NaiveTime::from_hms_opt(6, 0, 0).unwrap()..NaiveTime::from_hms_opt(12, 0, 0).unwrap();
//! assert!(Message::scan().day(day).time_range(morning).matches(&m.to_vec()?));
//! # }
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! ```compile_fail
//! #[derive(rowkey::RowKey)]
//! #[rowkey(text)]
//! struct Message {
//!     #[rowkey(format = "%A %d %B %Y")] // error: `%A` does not write every time in the same length
//!     day: chrono::NaiveDate,
//! }
//! ```
//!
//! ## `salt(buckets = N)`, `salt(buckets = N, hash = "md5" | "java" | "mod")`
//!
//! The key begins with one salt byte (text: decimal digits): the bucket `0..N` (N in 1..=256) of
//! this field's value bytes. Several fields may carry it, with the same N and hash; their bytes are
//! joined in declaration order. `md5` (the default) is `u32::from_be_bytes(md5(src)[0..4]) % N`;
//! `java` is Apache Phoenix's and OpenTSDB's `abs(Arrays.hashCode(src) % N)`; `mod` takes one
//! unsigned integer source `% N`. Decoding recomputes the bucket and rejects a wrong one.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct K {
//!     #[rowkey(salt(buckets = 16, hash = "mod"))]
//!     ts: u64,
//! }
//!
//! let key = K { ts: 35 }.to_vec()?;
//! assert_eq!(key[0], 35 % 16);
//! assert_eq!(K::decode(&key)?, K { ts: 35 });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## `hash_prefix(len = L)`, `hash_prefix(len = L, upper)`
//!
//! The key begins with the first L bytes (1..=16) of MD5 over the sources' value bytes; in text
//! layouts, L hex digits (1..=32), lowercase unless `upper`. Several fields may carry it, with the
//! same L. Not together with a salt.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct K {
//!     #[rowkey(hash_prefix(len = 3))]
//!     id: String,
//! }
//!
//! // printf foo0001 | md5sum  ->  95f18cf8...
//! assert_eq!(K { id: "foo0001".into() }.to_vec()?, b"\x95\xF1\x8Cfoo0001");
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! # On the struct
//!
//! ## `salt(buckets = N[, hash = ...])`
//!
//! A whole-key salt: the bucket of the whole unsalted key, as Phoenix salts a table.
//!
//! ```
//! use rowkey::{RowKey, Salt, SaltHash};
//!
//! #[derive(RowKey)]
//! #[rowkey(salt(buckets = 8, hash = "java"))]
//! struct K {
//!     org: String,
//!     id: u32,
//! }
//!
//! let key = K { org: "acme".into(), id: 7 }.to_vec()?;
//! assert_eq!(key[0], Salt::new(8, SaltHash::Java).unwrap().bucket_of(&key[1..]));
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! ## `text`, `text, delimiter = "s"`
//!
//! The text format: readable UTF-8 segments joined by the delimiter (empty when only `text` is
//! given). Integers, strings and fieldless enums only; see the crate documentation.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! #[rowkey(text, delimiter = "#")]
//! struct K {
//!     #[rowkey(width = 4, reverse)]
//!     id: u32,
//!     #[rowkey(reverse)]
//!     domain: String,
//! }
//!
//! assert_eq!(K { id: 56, domain: "www.example.com".into() }.to_vec()?, b"6500#moc.elpmaxe.www");
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! ## `max_len = N`
//!
//! The longest key the store takes (`RowKey::ROW_LIMIT`; HBase's 32767 when not given;
//! [`rowkey::limits`](crate::limits) names other stores' limits). A longer key is
//! `EncodeErrorKind::RowTooLong { len, max: N }` when it is written, and a fixed layout longer than
//! `N` does not compile (the error is on `N`; the length is the sum of each field type's
//! `KeyField::SHAPE`, so nested keys and your own types count too; a key with type parameters is
//! sized only when written). Plans are not limited: a scan may name values no
//! stored key can hold, and it finds none.
//!
//! ```
//! use rowkey::{limits, EncodeErrorKind, RowKey};
//!
//! #[derive(RowKey)]
//! #[rowkey(max_len = 1024)] // limits::DYNAMODB_SORT_KEY
//! struct SortKey {
//!     tenant: u32,
//!     path: String,
//! }
//!
//! assert_eq!(SortKey::ROW_LIMIT, limits::DYNAMODB_SORT_KEY);
//! let long = SortKey { tenant: 7, path: "p".repeat(1_021) };
//! let err = long.to_vec().unwrap_err();
//! assert_eq!(err.kind(), EncodeErrorKind::RowTooLong { len: 1_025, max: 1_024 });
//! ```
//!
//! ```compile_fail
//! #[derive(rowkey::RowKey)]
//! #[rowkey(max_len = 12)] // error: `Pair` keys are longer than its `max_len` of 12 bytes
//! struct Pair {
//!     id: u64,
//!     ts: i64,
//! }
//! ```
//!
//! ## `phoenix`
//!
//! The key is Apache Phoenix's primary key of the columns the fields map to, byte for byte (the
//! type table, the NULL rules and an example are on [`rowkey::phoenix`](crate::phoenix)): `desc`
//! is `DESC`, `salt(buckets = N)` on the struct is `SALT_BUCKETS = N` (Phoenix's salt byte, Java's
//! `Arrays.hashCode` of the key after it). A field Phoenix has no column for, a nullable
//! fixed-width column, `VARBINARY` before the last column or descending, an integer `width`, a
//! time `unit` other than `"ms"` (`DATE`, `TIME`) or `"ns"` (`TIMESTAMP`), `reverse`, hash
//! prefixes, field salts, `text`, `tag` and `format` do not compile, with the reason on the
//! token. `K::scan()` plans Phoenix keys, trailing NULLs and all; a nullable `desc` column and
//! a `CHAR(n)` have no `_range` (Phoenix puts NULL first, and pads `CHAR` with spaces). Its lock file says `format=phoenix`, and
//! `rowkey::schema` reads it; `rowkey::phoenix::lock_from_ddl` makes one from a table's
//! `CREATE TABLE`.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! #[rowkey(phoenix)]
//! struct Reading {
//!     sensor: String,
//!     #[rowkey(desc)]
//!     ts: i64,
//! }
//!
//! let key = Reading { sensor: "t1".into(), ts: 0 }.to_vec()?;
//! assert_eq!(key, [b't', b'1', 0x00, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! ```compile_fail
//! #[derive(rowkey::RowKey)]
//! #[rowkey(phoenix)]
//! struct Port {
//!     host: String,
//!     port: Option<u16>, // error: Phoenix cannot hold a nullable fixed-width column in a primary key
//! }
//! ```
//!
//! ## `crate = "path"`
//!
//! Where the `rowkey` crate is, for crates that re-export it and derive through the re-export.
//!
//! ```
//! mod my_facade {
//!     pub use rowkey::*;
//! }
//!
//! #[derive(rowkey::RowKey)]
//! #[rowkey(crate = "my_facade")]
//! struct K {
//!     id: u32,
//! }
//! # fn main() {}
//! ```
//!
//! ## `tag = b"..."`, `tag = n`, `tag = "..."`
//!
//! Constant bytes before everything else in the key, the salt or hash prefix included, so several
//! key types share one ordered key space: a byte string, an integer 0..=255 (one byte; three
//! digits in text layouts), or in text layouts a string, written as the first segment. Decoding
//! checks it; every plan, split key and `after`/`split` cut includes it.
//!
//! ```
//! use rowkey::{DecodeErrorKind, KeyRange, RowKey, Scan};
//!
//! #[derive(RowKey)]
//! #[rowkey(tag = b"evt/", salt(buckets = 4))]
//! struct Event {
//!     user: u32,
//! }
//!
//! #[derive(RowKey, Debug)]
//! #[rowkey(text, delimiter = ":", tag = "usr")]
//! struct User {
//!     name: String,
//! }
//!
//! assert_eq!(User { name: "ann".into() }.to_vec()?, b"usr:ann");
//! let key = Event { user: 7 }.to_vec()?;
//! assert_eq!(&key[..4], b"evt/"); // then the salt byte, then the user
//! let err = User::decode(&key).unwrap_err();
//! assert_eq!(err.kind(), DecodeErrorKind::UnknownTag { name: "User" });
//! let plan: Scan<User> = User::scan().into();
//! assert_eq!(plan.ranges().collect::<Vec<_>>(), [KeyRange::new(b"usr:", b"usr;")]);
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! A string tag in a binary layout, a byte string in a text layout, an empty tag and `tag` on a
//! field are compile errors on that token.
//!
//! ```compile_fail
//! #[derive(rowkey::RowKey)]
//! struct Event {
//!     #[rowkey(tag = b"evt/")] // error: `tag` has no meaning on a field
//!     id: u64,
//! }
//! ```
//!
//! # On an enum with fields
//!
//! An enum whose variants have named fields (or none) is a key: the variant's tag, then its
//! fields, with every field attribute. Its attributes are `text`, `delimiter`, `max_len`, `crate`
//! and `tag` (before every variant's tag); a salt or hash prefix is a compile error (the tag comes
//! first, so each variant's keys sit together).
//!
//! ## `tag = ...` on a variant
//!
//! Replaces the variant's default tag, its discriminant as one byte (`= n` with `#[repr(u8)]`, or
//! 0, 1, 2, ...; three digits in text layouts). Tags must be prefix-free, so the tag a key starts
//! with names its variant; a clash is a compile error on the later tag. Scans start by naming the
//! variant in snake_case.
//!
//! ```
//! use rowkey::{DecodeErrorKind, RowKey};
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! #[repr(u8)]
//! enum Row {
//!     User { id: u64 } = 1,
//!     Order { user: u64, #[rowkey(desc)] ts: i64 } = 2,
//!     #[rowkey(tag = b"idx")]
//!     OrderIndex { ts: i64, user: u64 },
//!     Gone,
//! }
//!
//! let order = Row::Order { user: 42, ts: 7 };
//! let key = order.to_vec()?;
//! assert_eq!(key[0], 2);
//! assert_eq!(Row::decode(&key)?, order);
//! assert_eq!(Row::OrderIndex { ts: 1, user: 2 }.to_vec()?[..3], *b"idx");
//! // Rust's discriminant: 4, after `OrderIndex`'s 3 (which its tag replaces).
//! assert_eq!(Row::Gone.to_vec()?, [4]);
//! assert_eq!(Row::decode(&[9]).unwrap_err().kind(), DecodeErrorKind::UnknownTag { name: "Row" });
//! assert!(Row::scan().order().user(42).ts_range(0..10).matches(&key));
//! assert_eq!(Row::LAYOUT.variants[1].name, "Row::Order");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ```compile_fail
//! #[derive(rowkey::RowKey)]
//! enum Row {
//!     #[rowkey(tag = b"o")]
//!     Order { id: u64 },
//!     #[rowkey(tag = b"ord")] // error: this tag "ord" starts with the tag "o" of `Order`
//!     OrderLine { id: u64, line: u16 },
//! }
//! ```
//!
//! Tuple variants are not supported: scans bind fields by name.
//!
//! ```compile_fail
//! #[derive(rowkey::RowKey)]
//! enum Row {
//!     Order(u64, i64), // error: #[derive(RowKey)] needs named fields in a variant
//! }
//! ```
//!
//! # On a fieldless enum
//!
//! Only `crate = "path"`. A fieldless enum is one field of the keys that hold it: their struct
//! chooses the format, the prefix and the tag, so `salt`, `text`, `delimiter`, `max_len` and `tag`
//! on it, or `tag` on one of its variants, are compile errors on that token.
//!
//! ```compile_fail
//! #[derive(rowkey::RowKey)]
//! #[rowkey(salt(buckets = 16))] // error: `salt` has no meaning on a fieldless enum
//! enum Kind {
//!     View,
//!     Click,
//! }
//! ```
//!
//! # Raw identifiers
//!
//! A field named with a raw identifier keeps it where the field itself is meant, and drops the
//! `r#` where a name is built from it or shown.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Node {
//!     r#type: u8,
//!     id: u32,
//! }
//!
//! let key = Node { r#type: 2, id: 7 }.to_vec()?;
//! assert!(Node::scan().r#type(2).matches(&key));
//! assert!(Node::scan().type_in([1, 2]).id_range(..10).matches(&key));
//! assert_eq!(Node::LAYOUT.segments[0].name, "type");
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
