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
//! `N` does not compile (the error is on `N`). Plans are not limited: a scan may name values no
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
//! #[rowkey(max_len = 12)] // error: this layout's keys are 16 bytes, longer than its `max_len` of 12
//! struct Pair {
//!     id: u64,
//!     ts: i64,
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
//! # On a fieldless enum
//!
//! Only `crate = "path"`. An enum is one field of the keys that hold it: their struct chooses the
//! format and the prefix, so `salt`, `text`, `delimiter` and `max_len` on an enum are compile
//! errors on that token, and so is `#[rowkey(...)]` on a variant.
//!
//! ```compile_fail
//! #[derive(rowkey::RowKey)]
//! #[rowkey(salt(buckets = 16))] // error: `salt` has no meaning on an enum
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
