//! What HBase imposes on row keys, and helpers for working beside the HBase shell.

/// HBase's limit on the length of a row key (`HConstants.MAX_ROW_LENGTH`, `Short.MAX_VALUE`).
///
/// Encoding a longer key is an [`EncodeError`](crate::EncodeError); a fixed layout longer than this
/// does not compile.
pub const MAX_ROW_LENGTH: usize = 32767;
