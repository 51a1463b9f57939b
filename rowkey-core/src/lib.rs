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
//! | [`EncodeError`], [`DecodeError`] | what went wrong, and in which field |
//! | [`hbase`] | HBase's row limit and shell helpers |
#![no_std]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod codec;
#[doc(hidden)]
pub mod derive_support;
mod error;
mod field;
pub mod hbase;
mod key;

pub use error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
pub use field::{DecodeField, FieldMode, FieldShape, KeyField, WidthRule};
pub use key::{DecodeKey, RowKey};
