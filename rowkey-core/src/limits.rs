//! The longest row key each store accepts, in bytes: the one place these numbers live. A key
//! longer than its store's limit is refused by the store, often only when the write reaches a
//! server; checking it first turns that into an [`EncodeError`]
//! ([`EncodeErrorKind::RowTooLong`]) before any request.
//!
//! ```
//! use rowkey::limits;
//! assert_eq!(limits::HBASE, i16::MAX as usize); // Java's Short.MAX_VALUE
//! assert_eq!(limits::BIGTABLE, 4 * 1024);
//! assert!(limits::check(&[0u8; 4096], limits::BIGTABLE).is_ok());
//! let err = limits::check(&[0u8; 4097], limits::BIGTABLE).unwrap_err();
//! assert!(err.to_string().contains("4097 bytes, longer than the row limit of 4096"));
//! ```

use crate::error::{EncodeError, EncodeErrorKind};

/// HBase: `HConstants.MAX_ROW_LENGTH`, `Short.MAX_VALUE`.
pub const HBASE: usize = 32_767;

/// Cloud Bigtable: 4 KiB.
pub const BIGTABLE: usize = 4_096;

/// TiKV: its default `max-key-size`, 4 KiB (configurable on the server).
pub const TIKV: usize = 4_096;

/// FoundationDB: 10,000 bytes.
pub const FOUNDATIONDB: usize = 10_000;

/// DynamoDB: a sort key of 1,024 bytes.
pub const DYNAMODB_SORT_KEY: usize = 1_024;

/// `Ok` when `key` is at most `max` bytes long, otherwise
/// [`EncodeErrorKind::RowTooLong`] with the key's length.
///
/// ```
/// use rowkey::{limits, EncodeErrorKind};
/// let err = limits::check(&[0u8; 1025], limits::DYNAMODB_SORT_KEY).unwrap_err();
/// assert_eq!(err.kind(), EncodeErrorKind::RowTooLong { len: 1025, max: 1024 });
/// ```
pub const fn check(key: &[u8], max: usize) -> Result<(), EncodeError> {
    if key.len() > max {
        return Err(EncodeError::new(EncodeErrorKind::RowTooLong {
            len: key.len(),
            max,
        }));
    }
    Ok(())
}
