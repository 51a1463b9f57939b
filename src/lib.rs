//! Order-preserving row keys for HBase, Bigtable and embedded ordered key-value stores (RocksDB,
//! fjall, redb, sled), declared with `#[derive(RowKey)]`.
//!
//! Ordered stores sort rows by the raw bytes of the key and split the key space into regions by
//! range. The key decides which reads are cheap range scans, and whether writes spread over the
//! cluster or pile onto one region. `rowkey` makes the layout a declaration: the derive generates
//! an encoder and a decoder whose bytes sort exactly as the fields do, field by field, with no
//! allocation.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq, Clone, Copy)]
//! enum Kind { View = 0, Click = 1 }
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Event {
//!     user_id: u64,
//!     #[rowkey(desc)]     // newest first: for ts >= 0 the bytes of Long.MAX_VALUE - ts
//!     ts: i64,
//!     kind: Kind,         // one byte, the discriminant
//!     host: String,       // last field: raw bytes to the end of the key
//! }
//!
//! let event = Event { user_id: 42, ts: 1_700_000_000_000, kind: Kind::Click, host: "web-1".into() };
//! let key = event.to_vec()?;
//! assert_eq!(&key[..8], &42u64.to_be_bytes());
//! assert_eq!(Event::decode(&key)?, event);
//!
//! // Later events sort first for the same user.
//! let later = Event { ts: event.ts + 1, ..Event { host: "web-1".into(), ..event } };
//! assert!(later.to_vec()? < key);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The byte format
//!
//! | type | bytes |
//! |---|---|
//! | `u8`..`u128` (`usize` as `u64`) | big-endian, `size_of` bytes (or `width` bytes) |
//! | `i8`..`i128` (`isize` as `i64`) | big-endian two's complement with the sign bit flipped |
//! | `bool` | `00` or `01` |
//! | `char` | its `u32`, big-endian |
//! | `f32`, `f64` | IEEE bits big-endian: negative values have every bit flipped, others the sign bit; `total_cmp` order, bits round-trip exactly |
//! | `[u8; N]` | the N bytes |
//! | `String`, `&str`, `Cow<str>`, `Vec<u8>`, `&[u8]`, `Cow<[u8]>` | last ascending field without width: raw to the end of the key. Otherwise each `00` becomes `00 FF` and the content ends with `00 01`. With `width`: padded with `00` |
//! | `Option<T>` | `None`: `00`; `Some(v)`: `01` then v |
//! | fieldless enum deriving `RowKey` | its discriminant, one byte |
//! | struct deriving `RowKey` | its fields in place |
//!
//! `desc` inverts every byte of the field (variable-length fields then always take the escaped
//! form). `reverse` stores numbers as their fixed-width bytes reversed, and strings and bytes as
//! their content reversed: it spreads sequential values and gives up the field's order.
//!
//! # Attributes
//!
//! The [`attributes`] page has every key with an example.
//!
//! | attribute | on | meaning |
//! |---|---|---|
//! | `width = N` | integer, string, bytes field | integers narrowed to N big-endian bytes, strings and bytes padded with `00` to N bytes; a value that does not fit is an [`EncodeError`] |
//! | `desc` | field | the field sorts descending |
//! | `reverse` | number, string, bytes field | the field is stored reversed |
//! | `unit = "s" \| "ms" \| "us" \| "ns"` | time field (`SystemTime`, chrono's types) | the unit the time is counted in since the Unix epoch (default `"ms"`, Java's `System.currentTimeMillis()`) |
//! | `max_len = N` | struct | the longest key allowed (default HBase's 32767); longer is [`EncodeError`], a longer fixed layout does not compile |
//! | `salt(buckets = N)` | field | the key begins with one salt byte, the bucket `0..N` of this field's value bytes (several fields may carry it, with the same N and hash: their bytes are joined in declaration order) |
//! | `salt(buckets = N, hash = "md5" \| "java" \| "mod")` | field | the same with a chosen bucket function ([`SaltHash`]): md5 (default), Phoenix/OpenTSDB's Java hash, or the value `% N` |
//! | `salt(buckets = N[, hash = ...])` | struct | whole-key salt: the bucket of the whole unsalted key (as Phoenix salts tables) |
//! | `hash_prefix(len = L)` | field | the key begins with the first L bytes (1..=16) of MD5 over the sources' value bytes |
//! | `hash_prefix(len = L, upper)` | field (text layouts) | L hex digits (1..=32) of the MD5, uppercase with `upper` |
//! | `text`, `text, delimiter = "s"` | struct | the text format: readable UTF-8 segments joined by the delimiter (empty by default) |
//! | `crate = "path"` | struct, enum | where the `rowkey` crate is, for crates that re-export it |
//!
//! # Text layouts
//!
//! `#[rowkey(text, delimiter = ":")]` writes the readable keys that Java, Python and HBase shell
//! users build by hand: numbers as zero-padded decimal (`desc` as MAX - v, so an `i64` gives Java's
//! `Long.MAX_VALUE - ts`), strings as their content, the salt in decimal and the hash prefix in hex.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! #[rowkey(text, delimiter = ":")]
//! struct Event {
//!     user: String,
//!     #[rowkey(desc)]
//!     ts: i64,
//! }
//!
//! // Java: String.format("%s:%019d", user, Long.MAX_VALUE - ts)
//! let e = Event { user: "alice".into(), ts: 1_700_000_000_000 };
//! assert_eq!(e.to_vec()?, b"alice:9223370336854775807");
//! assert_eq!(Event::decode(b"alice:9223370336854775807")?, e);
//!
//! #[derive(RowKey)]
//! #[rowkey(text, delimiter = "-")]
//! struct Page {
//!     #[rowkey(hash_prefix(len = 6))]
//!     id: String,
//! }
//! assert_eq!(Page { id: "user42".into() }.to_vec()?, b"fd8689-user42");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A field's *value bytes*, the input of salts and hashes, are the content of strings and bytes,
//! and for numbers their fixed-width big-endian encoding (narrowed to `width`), before `desc` or
//! `reverse`. `decode` recomputes the prefix and rejects a key whose salt byte or hash prefix does
//! not match its fields.
//!
//! # Hotspots and pre-splitting
//!
//! A key that begins with a timestamp or a sequence number sends every write to the last region.
//! A salt or hash prefix spreads them, as long as the table is pre-split at matching points:
//!
//! ```
//! use rowkey::{hbase, RowKey};
//!
//! #[derive(RowKey)]
//! #[rowkey(salt(buckets = 16))]
//! struct Event { ts_millis: u64, event_id: u32 }
//!
//! let splits = Event::split_keys(16); // the bucket boundaries 01, 02, .., 0F
//! assert_eq!(splits.len(), 15);
//! println!("{}", hbase::create_statement("events", &["d"], &splits));
//! ```
//!
//! Writers that choose the bucket themselves (random or round-robin salting) use [`SaltedKey`];
//! their readers must try every bucket ([`SaltedKey::bucket_keys`]) and decode with
//! [`DecodeSaltedKey::decode_any_bucket`]. The [`regions`] module models a pre-split table: the
//! region of a key, rows per region, and the skew. The key lab, the crate `rowkey-lab`,
//! plays a stream of writes into a table that is pre-split or splits by itself, reports the
//! busiest region's share of each window, draws the heatmap of time against key space, and
//! advises on a layout before any cluster exists.
//!
//! # Keys that stay readable
//!
//! Stored keys outlive the code that wrote them. `rowkey::lock::assert_locked` (feature `lock`) in a test
//! pins a key type's layout and sample keys to a text file checked in beside it, and fails on a
//! change that would leave stored rows unreadable, naming the field and how it changed.
//!
//! Misuse does not compile: unknown or repeated keys, `desc` with `reverse`, `width = 0`, a width on
//! a type without one, a borrowed `&str`/`&[u8]` where decoding must unescape or invert (use `Cow`),
//! a fixed layout longer than HBase's row limit ([`limits::HBASE`]), both a salt and a hash prefix, N outside
//! 1..=256, L outside 1..=16, sources that disagree on their parameters, `hash = "mod"` on anything
//! but one unsigned integer, and a prefix on a nested key.
//!
//! # What the derive generates
//!
//! Trait impls, and a few inherent items so that the common path needs only `use rowkey::RowKey`:
//!
//! - [`RowKey`](trait@RowKey): `LAYOUT`, `FIXED_LEN`, `MAX_LEN`, `encoded_len`, `encode_into` (no
//!   allocation), `to_vec`, `explain`, `split_keys`;
//! - [`DecodeKey`]: `decode`, which consumes the whole key and never panics;
//! - [`KeyField`] and [`DecodeField`], so the type can be a field of another key;
//! - for salted layouts, [`SaltedKey`] and [`DecodeSaltedKey`];
//! - inherent: `K::decode`, `K::LAYOUT` and `K::explain` (the trait's, reachable with no trait in
//!   scope), `K::scan()`, and for fixed layouts `K::LEN` and `K::to_key() -> Result<[u8; K::LEN],
//!   EncodeError>`. A type that already has an item of one of these names does not compile
//!   ("duplicate definitions with name `scan`"): rename yours;
//! - the builder states of `K::scan()`: one generic type per key, which users need not name.

//! # Scans
//!
//! `K::scan()` walks the fields in key order. For the field `f` that comes next, `.f(v)` binds it,
//! `.f_in(values)` binds it to a list, and `.f_range(r)` or (strings and bytes) `.f_prefix(p)`
//! end the scan with a range. Binding out of key order does not compile. Every state has
//! `ranges()`, the sorted, non-overlapping [`KeyRange`]s to scan, `matches(&[u8])`, which checks
//! one key exactly, and `is_exact()`, which says whether every key in the ranges matches.
//!
//! Every state, finished or not, also has `after`, `split` and `salt_len`, and converts into a
//! [`Scan`] with `into()` (or `Scan::from`): the one type to pass a plan around as. A layout without a
//! salt, hash prefix, tag or text format plans in a fast lane inside the states (the bound bytes
//! go into arrays of the key's length, or of up to 48 bytes for keys that vary), so a
//! single-range plan on a fixed layout costs about as much as an allocating `to_vec`; nothing
//! about it shows in the API.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Reading {
//!     sensor: u32,
//!     #[rowkey(desc)]
//!     ts: i64,
//! }
//!
//! let plan = Reading::scan().sensor(7).ts_range(100..200);
//! let ranges: Vec<_> = plan.ranges().collect();
//! assert_eq!(ranges.len(), 1);
//! assert!(plan.matches(&Reading { sensor: 7, ts: 150 }.to_vec()?));
//! assert!(!plan.matches(&Reading { sensor: 7, ts: 200 }.to_vec()?));
//! assert!(ranges[0].contains(&Reading { sensor: 7, ts: 100 }.to_vec()?));
//!
//! // One type for any plan of `Reading`, from any state of the builder.
//! fn run(plan: &rowkey::Scan<Reading>) -> usize {
//!     plan.ranges().count()
//! }
//! assert_eq!(run(&plan.into()), 1);
//! assert_eq!(run(&Reading::scan().sensor_in([7, 9]).into()), 2);
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
//!
//! Salted layouts plan one range per bucket (or only the buckets of bound sources); merge the
//! per-bucket results with [`merge::merge_by_key`]. A hash-prefixed layout whose hash sources are
//! not all bound scans the whole table with `is_exact()` false.
//!
//! To key on your own types, implement [`KeyField`] and [`DecodeField`]. With the `uuid` feature,
//! `uuid::Uuid` is a field type (its 16 bytes); with `decimal`, `rust_decimal::Decimal` (ordered by
//! value, one key per value: 0.5 and 0.50 have the same bytes). [`Hashed<N>`](Hashed) puts the first N bytes of
//! MD5 of a long value in its place (the HBase book's `[md5(hostname)][md5(event)][timestamp]`):
//!
//! ```
//! use rowkey::{Hashed, RowKey};
//!
//! #[derive(RowKey)]
//! struct LogData {
//!     host: Hashed<16>,
//!     event: Hashed<16>,
//!     ts: u64,
//! }
//!
//! let row = LogData { host: Hashed::of("myserver1.mycompany.com"), event: Hashed::of("login"), ts: 7 };
//! let key = row.to_vec()?;
//! assert_eq!(key.len(), 40);
//! // `echo -n myserver1.mycompany.com | md5sum`: 158c93e0eca9fd1206753a1972c261ed
//! assert_eq!(key[..4], [0x15, 0x8c, 0x93, 0xe0]);
//! let plan = LogData::scan().host(Hashed::of("myserver1.mycompany.com")).event(Hashed::of("login"));
//! assert!(plan.matches(&key) && plan.is_exact());
//! # Ok::<(), rowkey::EncodeError>(())
//! ```
#![no_std]
// Without `alloc` the plans, merges and regions the docs link to do not exist; the links are
// for the documented build (all features, as docs.rs builds it).
#![cfg_attr(not(feature = "alloc"), allow(rustdoc::broken_intra_doc_links))]
#![deny(missing_docs, missing_debug_implementations)]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
// The store adapters run on std clients; the retry policy reads the clock.
#[cfg(feature = "std")]
extern crate std;

pub use rowkey_core::{
    DecodeError, DecodeErrorKind, DecodeField, DecodeKey, DecodeSaltedKey, EncodeError,
    EncodeErrorKind, Encoding, FieldMode, FieldShape, HashPrefix, HashPrefixHasher, Hashed,
    KeyField, KeyFormat, Layout, Order, Prefix, RowKey, Salt, SaltHash, SaltHasher, SaltedKey,
    Segment, Tag, TextRule, TimeUnit, ValueSink, WidthRule,
};
/// Derives [`RowKey`](trait@RowKey), [`DecodeKey`], [`KeyField`] and [`DecodeField`] for a struct
/// with named fields or a fieldless enum, plus `K::scan()`, `K::LAYOUT`, `K::explain`, and for
/// fixed layouts `K::LEN` and `K::to_key()`. The [`attributes`] page lists every attribute.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Reading {
///     sensor: u16,
///     #[rowkey(desc)]
///     ts: i64,
/// }
///
/// let r = Reading { sensor: 7, ts: 1 };
/// let key: [u8; Reading::LEN] = r.to_key()?;
/// assert_eq!(key[..2], [0, 7]);
/// assert_eq!(Reading::decode(&key)?, r);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use rowkey_derive::RowKey;

pub mod attributes;

#[cfg(feature = "async")]
pub use rowkey_core::fanout;
pub use rowkey_core::hbase;
#[cfg(feature = "std")]
pub mod retry;
pub use rowkey_core::limits;
#[cfg(feature = "lock")]
pub use rowkey_core::lock;
pub use rowkey_core::phoenix;
#[cfg(feature = "alloc")]
pub use rowkey_core::regions;
#[cfg(feature = "schema")]
pub use rowkey_core::schema;
#[cfg(feature = "alloc")]
pub use rowkey_core::{merge, Explained, ExplainedSegment, KeyPattern, KeyRange, Ranges, Scan};

/// Support for generated code. Not a public API.
#[doc(hidden)]
pub mod __private {
    #[cfg(feature = "alloc")]
    pub use alloc::vec::Vec;
    pub use core::clone::Clone;
    pub use core::convert::{AsRef, From};
    pub use core::fmt::{Debug, Formatter, Result as FmtResult};
    pub use core::iter::IntoIterator;
    pub use core::marker::PhantomData;
    pub use core::ops::{Deref, RangeBounds};
    pub use core::option::Option::{self, None, Some};
    pub use core::result::Result::{self, Err, Ok};
    pub use rowkey_core::private::*;
}

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
