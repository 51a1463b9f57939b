//! The two traits a whole key implements: [`RowKey`] to encode and [`DecodeKey`] to read it back.
//! `#[derive(RowKey)]` implements both (and [`KeyField`](crate::KeyField), so keys nest).

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::error::{DecodeError, EncodeError};

/// A type that encodes to an order-preserving row key: the byte order of two keys is the order of
/// the values, field by field.
///
/// Derive it; see the `rowkey` crate for the attributes.
pub trait RowKey {
    /// The length of every key, when every field has a fixed width.
    const FIXED_LEN: Option<usize>;

    /// An upper bound of the key length, when every field is bounded.
    const MAX_LEN: Option<usize>;

    /// The exact length [`encode_into`](RowKey::encode_into) writes.
    fn encoded_len(&self) -> usize;

    /// Writes the key at the start of `out` and returns its length. Never allocates.
    ///
    /// Fails when `out` is too short, a value does not fit its `width`, or the key is longer than
    /// [`hbase::MAX_ROW_LENGTH`](crate::hbase::MAX_ROW_LENGTH); what `out` holds after an error is
    /// unspecified.
    fn encode_into(&self, out: &mut [u8]) -> Result<usize, EncodeError>;

    /// The key as a new vector.
    #[cfg(feature = "alloc")]
    fn to_vec(&self) -> Result<Vec<u8>, EncodeError> {
        let mut key = alloc::vec![0; self.encoded_len()];
        let n = self.encode_into(&mut key)?;
        key.truncate(n);
        Ok(key)
    }
}

/// A key type that can be read back from its bytes. `'k` is the lifetime of those bytes, which
/// `&str`, `&[u8]` and `Cow` fields borrow.
pub trait DecodeKey<'k>: Sized {
    /// Decodes a whole key: every byte must be consumed, and salt bytes and hash prefixes must
    /// match the fields. Never panics, whatever the input.
    fn decode(key: &'k [u8]) -> Result<Self, DecodeError>;
}
