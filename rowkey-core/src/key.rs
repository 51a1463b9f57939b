//! The two traits a whole key implements: [`RowKey`] to encode and [`DecodeKey`] to read it back.
//! `#[derive(RowKey)]` implements both (and [`KeyField`](crate::KeyField), so keys nest).

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::error::{DecodeError, EncodeError};
use crate::prefix::Prefix;

/// A type that encodes to an order-preserving row key: the byte order of two keys is the order of
/// the values, field by field.
///
/// Derive it; see the `rowkey` crate for the attributes.
pub trait RowKey {
    /// The length of every key, when every field has a fixed width.
    const FIXED_LEN: Option<usize>;

    /// An upper bound of the key length, when every field is bounded.
    const MAX_LEN: Option<usize>;

    /// The prefix component: a salt byte, an MD5 prefix, or none.
    const PREFIX: Prefix = Prefix::None;

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

impl<K: RowKey + ?Sized> SplitKeys for K {}

/// Split points for pre-splitting a table, implemented for every [`RowKey`].
pub trait SplitKeys: RowKey {
    /// `regions - 1` sorted split points that divide the key space of a salted or hash-prefixed
    /// layout evenly: at bucket boundaries for a salt (between them, as if the rest of the key were
    /// uniform, when there are more regions than buckets), at evenly spaced values of a hash
    /// prefix. Empty for layouts without a prefix (their keys have no uniform split) and for
    /// `regions <= 1`.
    ///
    /// Region `i` holds the keys from split point `i - 1` (inclusive) to split point `i`
    /// (exclusive), as in HBase.
    #[cfg(feature = "alloc")]
    fn split_keys(regions: usize) -> Vec<Vec<u8>> {
        crate::regions::split_points(Self::PREFIX, regions)
    }
}

/// A salted key whose writer may choose the bucket: random or round-robin salting (the HBaseWD
/// pattern), or replaying another system's salt.
///
/// Such keys spread writes perfectly but cost reads: the bucket can no longer be computed from
/// the fields, so a Get must try every bucket ([`bucket_keys`](SaltedKey::bucket_keys)) and a
/// scan must fan out over all of them. Decode them with
/// [`decode_any_bucket`](DecodeSaltedKey::decode_any_bucket); the plain `decode` checks the salt
/// against the computed bucket and refuses them.
///
/// `#[derive(RowKey)]` implements it for layouts with a salt.
pub trait SaltedKey: RowKey {
    /// The number of salt buckets.
    const BUCKETS: u16;

    /// Encodes the key with `bucket` as its salt byte instead of the computed one.
    fn encode_into_bucket(&self, bucket: u8, out: &mut [u8]) -> Result<usize, EncodeError>;

    /// The key with `bucket` as its salt byte, as a new vector.
    #[cfg(feature = "alloc")]
    fn to_vec_in_bucket(&self, bucket: u8) -> Result<Vec<u8>, EncodeError> {
        let mut key = alloc::vec![0; self.encoded_len()];
        let n = self.encode_into_bucket(bucket, &mut key)?;
        key.truncate(n);
        Ok(key)
    }

    /// The key in every bucket, in bucket order: what a Get must try when writers choose buckets.
    #[cfg(feature = "alloc")]
    fn bucket_keys(&self) -> Result<Vec<Vec<u8>>, EncodeError> {
        (0..Self::BUCKETS)
            .map(|b| self.to_vec_in_bucket(b as u8))
            .collect()
    }
}

/// Decoding of [`SaltedKey`]s written with a writer-chosen bucket.
pub trait DecodeSaltedKey<'k>: SaltedKey + DecodeKey<'k> {
    /// Decodes a key whose salt byte may be any bucket below [`SaltedKey::BUCKETS`], and returns
    /// it with that bucket.
    fn decode_any_bucket(key: &'k [u8]) -> Result<(Self, u8), DecodeError>;
}

/// A key type that can be read back from its bytes. `'k` is the lifetime of those bytes, which
/// `&str`, `&[u8]` and `Cow` fields borrow.
pub trait DecodeKey<'k>: Sized {
    /// Decodes a whole key: every byte must be consumed, and salt bytes and hash prefixes must
    /// match the fields. Never panics, whatever the input.
    fn decode(key: &'k [u8]) -> Result<Self, DecodeError>;
}
