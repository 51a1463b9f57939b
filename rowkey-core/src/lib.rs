//! The runtime of [`rowkey`](https://docs.rs/rowkey): order-preserving field codecs, the key traits,
//! errors and HBase helpers. Use it through the `rowkey` facade, which adds `#[derive(RowKey)]`.
//!
//! The crate is `no_std`; the `alloc` feature adds owned fields (`String`, `Vec<u8>`, `Cow`) and
//! `RowKey::to_vec`, and `std` (on by default) adds `std::error::Error` for the errors.
//!
//! | module | idea |
//! |---|---|
//! | [`RowKey`], [`DecodeKey`] | a whole key, encoded and decoded |
//! | [`KeyField`], [`DecodeField`], [`FieldMode`] | one field in one position of a key |
//! | [`KeyFormat`] | a key's byte format: binary, text, or Apache Phoenix's |
//! | [`Salt`], [`HashPrefix`], [`Prefix`] | the prefix component that spreads keys over regions |
//! | [`EncodeError`], [`DecodeError`] | what went wrong, and in which field |
//! | [`Scan`], [`KeyRange`] | scan plans: the ranges that hold the rows a query asks for |
//! | [`merge`] | k-way merge of per-bucket streams back into key order |
//! | `fanout` (feature `async`) | every range of a plan read at once through an async reader, merged back in order |
//! | [`regions`] | split points, the region of a key, per-region counts and skew |
//! | [`hbase`] | HBase's row limit, `toStringBinary`, and shell commands |
//! | [`Layout`], [`Encoding`] | a key's layout as data, each segment described from its shape |
//!
//! Inside, one concept a file and no import circles: `format.rs` is a key's byte format
//! ([`KeyFormat`]) and names the bytes the formats give meaning to; `buf.rs` the bounds-checked
//! views of the bytes a codec writes and reads; `codec/` writes each type family, asking the key's
//! format, whose rules each have a folder (`codec/binary/`, `codec/text/`, `codec/phoenix/`;
//! `codec/mod.rs` says how to add one); `field/` is the field contract (the traits, which name a
//! nested key's `Layout`) over its modes and shapes (which the layout's encodings name, so they
//! import nothing of the contract), and a key's layout as data (`layout.rs`); `prefix/` the salt
//! and the hash prefix, and `hex.rs` the hex digits a text prefix and a digest are written in;
//! `time/` what a time is (its count since the epoch, its units, chrono formats); `describe/` how
//! a layout is built and shown in words, its segments' encodings and explained keys; `walk/` the
//! one walk through a key: `frame.rs` what stands around the fields (tag, prefix, delimiters), for
//! derived keys and the schema's alike, `prefix_steps.rs` the prefix computed and checked,
//! `mod.rs` a derived key's fields; `key/` the whole key's traits and, in `io.rs`, a whole key
//! written and read as its own last field; `scan/` planning (its `mod.rs` lists its files);
//! `words.rs` the words messages share (a count and its noun, the nearest known name); `private/`
//! is what generated code calls, and nothing else imports it.
//!
//! Every field type writes itself in its position of a key, as the generated code does it:
//!
//! ```
//! use rowkey::{DecodeField, FieldMode, KeyField};
//! // `user_id: u64`, then `#[rowkey(desc)] ts: i64` (newest first).
//! let ts = 1_700_000_000_000i64;
//! let mut key = [0u8; 16];
//! let n = 42u64.encode(&mut key, FieldMode::INNER)?;
//! ts.encode(&mut key[n..], FieldMode::LAST.with_desc())?;
//! assert_eq!(key[..n], 42u64.to_be_bytes()); // Java's Bytes.toBytes(long)
//! assert_eq!(key[n..], (i64::MAX - ts).to_be_bytes()); // Bytes.toBytes(Long.MAX_VALUE - ts)
//! assert_eq!(i64::decode_field(&key[n..], FieldMode::LAST.with_desc())?, (ts, 8));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![no_std]
#![deny(missing_docs, missing_debug_implementations)]
// Without `alloc` the plans, merges and regions the docs link to do not exist; the links are
// for the documented build (all features, as docs.rs builds it).
#![cfg_attr(not(feature = "alloc"), allow(rustdoc::broken_intra_doc_links))]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod buf;
mod codec;
mod cursor;
mod describe;
mod error;
#[cfg(feature = "async")]
pub mod fanout;
mod field;
mod format;
mod hashed;
pub mod hbase;
mod hex;
mod key;
pub mod limits;
#[cfg(feature = "lock")]
pub mod lock;
#[cfg(feature = "alloc")]
pub mod merge;
mod num;
pub mod phoenix;
mod prefix;
#[doc(hidden)]
pub mod private;
#[cfg(feature = "alloc")]
pub mod regions;
#[cfg(feature = "alloc")]
mod scan;
#[cfg(feature = "schema")]
pub mod schema;
mod sink;
mod tag;
mod time;
mod walk;
mod words;

#[cfg(feature = "alloc")]
pub use describe::explain::{Explained, ExplainedSegment};
pub use error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
pub use field::layout::Encoding;
pub use field::layout::{Layout, Order, Segment};
pub use field::{DecodeField, FieldMode, FieldShape, KeyField, TextRule, WidthRule};
pub use format::KeyFormat;
pub use hashed::Hashed;
pub use key::{DecodeKey, DecodeSaltedKey, RowKey, SaltedKey};
pub use prefix::{HashPrefix, HashPrefixHasher, Prefix, Salt, SaltHash, SaltHasher};
#[cfg(feature = "alloc")]
pub use scan::{KeyPattern, KeyRange, Ranges, Scan};
pub use sink::ValueSink;
pub use tag::Tag;
pub use time::unit::TimeUnit;
