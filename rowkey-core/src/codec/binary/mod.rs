//! rowkey's binary format ([`KeyFormat::Binary`](crate::KeyFormat::Binary)), the default: its
//! rules for variable-length content, escaped when another field follows (`escape.rs`), padded
//! with `00` to a `width` (`pad.rs`), raw at the end of the key (`content.rs`). Nothing stands
//! between its fields. The fixed-width families' big-endian, sign-flipped bytes are still written
//! in `fixed.rs` for every format that shares them.

pub(crate) mod content;
#[cfg(feature = "decimal")]
pub(crate) mod decimal;
pub(crate) mod escape;
pub(crate) mod option;
pub(crate) mod pad;
#[cfg(any(feature = "std", feature = "chrono"))]
pub(crate) mod time;
pub(crate) mod words;

use super::Format;

/// The binary format's codec: [`Format`]'s defaults, which call the rules of this folder.
#[derive(Debug)]
pub(crate) enum Binary {}

impl Format for Binary {}
