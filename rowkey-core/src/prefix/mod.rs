//! The prefix component: one salt byte or an MD5 prefix in front of the key, computed from some of
//! its fields, so that sequential keys spread over the regions of a pre-split table instead of
//! piling onto the last one.
//!
//! A prefix only helps when it can be rebuilt: readers recompute it for a Get, decoders verify it,
//! and split points match it. Everything here works incrementally on the sources' value bytes (see
//! [`KeyField::value_bytes`](crate::KeyField::value_bytes)), so no source is copied.

mod hash;
mod salt;

pub use hash::{HashPrefix, HashPrefixHasher};
pub use salt::{Salt, SaltHash, SaltHasher};

/// The prefix component of a layout, as the compiler knows it.
///
/// ```
/// use rowkey::{HashPrefix, Prefix, Salt, SaltHash};
/// let salt = Prefix::Salt(Salt::new(16, SaltHash::Md5).unwrap());
/// let hash = Prefix::Hash(HashPrefix::new(4).unwrap());
/// assert_eq!(Prefix::None.encoded_len(), 0);
/// assert_eq!(salt.encoded_len(), 1);
/// assert_eq!(hash.encoded_len(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Prefix {
    /// No prefix.
    None,
    /// One salt byte.
    Salt(Salt),
    /// An MD5 prefix.
    Hash(HashPrefix),
}

impl Prefix {
    /// The number of bytes the prefix takes.
    ///
    /// ```
    /// use rowkey::{HashPrefix, Prefix, Salt, SaltHash};
    /// assert_eq!(Prefix::Salt(Salt::new(100, SaltHash::Java).unwrap()).encoded_len(), 1);
    /// assert_eq!(Prefix::Hash(HashPrefix::new(6).unwrap()).encoded_len(), 6);
    /// assert_eq!(Prefix::None.encoded_len(), 0);
    /// ```
    pub const fn encoded_len(self) -> usize {
        match self {
            Prefix::None => 0,
            Prefix::Salt(s) => s.encoded_len(),
            Prefix::Hash(h) => h.prefix_len(),
        }
    }

    /// Whether there is no prefix.
    ///
    /// ```
    /// use rowkey::{HashPrefix, Prefix};
    /// assert!(Prefix::None.is_none());
    /// assert!(!Prefix::Hash(HashPrefix::new(1).unwrap()).is_none());
    /// ```
    pub const fn is_none(self) -> bool {
        matches!(self, Prefix::None)
    }
}
