//! A hash prefix: the first bytes of MD5 over the key's sources (hex digits in text layouts), in
//! front of the key, so that keys spread evenly and a reader who knows the sources can rebuild it.

use md5::{Digest, Md5};

use crate::hex;
use crate::sink::ValueSink;

/// An MD5 prefix: the first `len` bytes (1..=16) of MD5 over the sources.
///
/// ```
/// use rowkey::HashPrefix;
/// let mut out = [0u8; 3];
/// HashPrefix::new(3).unwrap().prefix_of(b"foo0001", &mut out);
/// assert_eq!(out, [0x95, 0xF1, 0x8C]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HashPrefix {
    len: u8,
    /// Text layouts: hex digits (`upper` for uppercase) instead of raw bytes.
    // Held by the prefix, as a salt holds its form (see `Salt`): used without a key, and const
    // data in a layout.
    text: Option<bool>,
}

impl HashPrefix {
    /// The longest binary hash prefix: an MD5 digest's bytes.
    pub const MAX_LEN: usize = 16;
    /// The longest text hash prefix: an MD5 digest's hex digits.
    pub const MAX_TEXT_LEN: usize = 32;

    /// A prefix of `len` bytes (1..=16); `None` otherwise.
    ///
    /// ```
    /// use rowkey::HashPrefix;
    /// assert_eq!(HashPrefix::new(16).map(HashPrefix::prefix_len), Some(16));
    /// assert!(HashPrefix::new(0).is_none());
    /// assert!(HashPrefix::new(17).is_none()); // longer than an MD5 digest
    /// ```
    pub const fn new(len: usize) -> Option<HashPrefix> {
        if len >= 1 && len <= HashPrefix::MAX_LEN {
            Some(HashPrefix {
                len: len as u8,
                text: None,
            })
        } else {
            None
        }
    }

    /// A text prefix of `len` hex digits (1..=32), uppercase when `upper`; `None` otherwise. A
    /// text layout's prefix comes from its derive or its lock; the derive reaches this through the
    /// hidden module.
    pub(crate) const fn text(len: usize, upper: bool) -> Option<HashPrefix> {
        if len >= 1 && len <= HashPrefix::MAX_TEXT_LEN {
            Some(HashPrefix {
                len: len as u8,
                text: Some(upper),
            })
        } else {
            None
        }
    }

    /// Whether the prefix is hex digits: the prefix of a text layout.
    ///
    /// ```
    /// use rowkey::HashPrefix;
    /// assert!(!HashPrefix::new(6).unwrap().is_text());
    /// ```
    pub const fn is_text(self) -> bool {
        self.text.is_some()
    }

    /// Whether text hex digits are uppercase (`hash_prefix(len = 6, upper)` in a text layout).
    ///
    /// ```
    /// use rowkey::HashPrefix;
    /// assert!(!HashPrefix::new(6).unwrap().is_upper());
    /// ```
    pub const fn is_upper(self) -> bool {
        matches!(self.text, Some(true))
    }

    /// The prefix length in bytes (hex digits in text layouts).
    ///
    /// ```
    /// use rowkey::HashPrefix;
    /// assert_eq!(HashPrefix::new(4).unwrap().prefix_len(), 4);
    /// ```
    pub const fn prefix_len(self) -> usize {
        self.len as usize
    }

    /// Writes the prefix of `src` to `out[..len]` (`out` shorter than `len` takes what fits).
    ///
    /// ```
    /// use rowkey::HashPrefix;
    /// // md5("user42") = fd 86 89 cb 80 11 ...
    /// let mut out = [0u8; 4];
    /// HashPrefix::new(4).unwrap().prefix_of(b"user42", &mut out);
    /// assert_eq!(out, [0xFD, 0x86, 0x89, 0xCB]);
    /// let mut short = [0u8; 2];
    /// HashPrefix::new(4).unwrap().prefix_of(b"user42", &mut short);
    /// assert_eq!(short, [0xFD, 0x86]);
    /// ```
    pub fn prefix_of(self, src: &[u8], out: &mut [u8]) {
        let mut h = self.hasher();
        h.write(src);
        h.finish_into(out);
    }

    /// An incremental prefix computation, for sources given in pieces.
    ///
    /// ```
    /// use rowkey::{HashPrefix, ValueSink};
    /// let mut h = HashPrefix::new(3).unwrap().hasher();
    /// h.write(b"user");
    /// h.write(b"42");
    /// let mut out = [0u8; 3];
    /// h.finish_into(&mut out);
    /// assert_eq!(out, [0xFD, 0x86, 0x89]); // md5("user42") begins fd 86 89
    /// ```
    pub fn hasher(self) -> HashPrefixHasher {
        HashPrefixHasher {
            len: self.len,
            text: self.text,
            md5: Md5::new(),
        }
    }
}

/// A hash prefix being computed; feed it the sources, then [`finish_into`](HashPrefixHasher::finish_into).
///
/// ```
/// use rowkey::{FieldMode, HashPrefix, KeyField};
/// // A string source gives its content: the prefix of "user42" in 2 bytes.
/// let mut h = HashPrefix::new(2).unwrap().hasher();
/// "user42".value_bytes(FieldMode::INNER, &mut h)?;
/// let mut out = [0u8; 2];
/// h.finish_into(&mut out);
/// assert_eq!(out, [0xFD, 0x86]);
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Clone)]
pub struct HashPrefixHasher {
    len: u8,
    text: Option<bool>,
    md5: Md5,
}

impl core::fmt::Debug for HashPrefixHasher {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HashPrefixHasher")
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

impl ValueSink for HashPrefixHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.md5.update(bytes);
    }
}

impl HashPrefixHasher {
    /// Writes the prefix to `out[..len]` (`out` shorter than `len` takes what fits).
    ///
    /// ```
    /// use rowkey::{HashPrefix, ValueSink};
    /// let mut h = HashPrefix::new(2).unwrap().hasher();
    /// h.write(b"user42");
    /// let mut out = [0u8; 4];
    /// h.finish_into(&mut out);
    /// assert_eq!(out, [0xFD, 0x86, 0, 0]); // only the first 2 bytes are written
    /// ```
    pub fn finish_into(self, out: &mut [u8]) {
        let n = usize::from(self.len).min(out.len());
        let prefix = self.finish();
        out[..n].copy_from_slice(&prefix[..n]);
    }

    /// The prefix in a 32-byte array, of which the first `len` bytes count: digest bytes, or hex
    /// digits in text layouts.
    ///
    /// ```
    /// use rowkey::{HashPrefix, ValueSink};
    /// let mut h = HashPrefix::new(2).unwrap().hasher();
    /// h.write(b"user42");
    /// let digest = h.finish();
    /// assert_eq!(digest[..4], [0xFD, 0x86, 0x89, 0xCB]); // the whole md5 is there; 2 bytes count
    /// ```
    pub fn finish(self) -> [u8; 32] {
        let digest: [u8; 16] = self.md5.finalize().into();
        let mut out = [0u8; 32];
        match self.text {
            None => out[..16].copy_from_slice(&digest),
            Some(upper) => {
                let digits = if upper { hex::UPPER } else { hex::LOWER };
                hex::write(&digest, &mut out, digits);
            }
        }
        out
    }
}

#[cfg(test)]
mod text_tests {
    use super::*;
    use crate::sink::ValueSink;

    #[test]
    fn a_text_prefix_is_md5_in_hex_digits() {
        // md5("user42") begins fd 86 89 cb (md5sum).
        let mut out = [0u8; 6];
        // `id = "user42"` with `hash_prefix(len = 6)` in a text layout is `fd8689-user42`.
        HashPrefix::text(6, false)
            .unwrap()
            .prefix_of(b"user42", &mut out);
        assert_eq!(&out, b"fd8689");
        let upper = HashPrefix::text(6, true).unwrap();
        assert!(upper.is_upper() && upper.is_text());
        upper.prefix_of(b"user42", &mut out);
        assert_eq!(&out, b"FD8689");
        assert!(!HashPrefix::text(6, false).unwrap().is_upper());
        assert_eq!(HashPrefix::text(32, false).unwrap().prefix_len(), 32); // all of md5 in hex
        assert!(HashPrefix::text(32, true).is_some());
        assert!(HashPrefix::text(0, false).is_none() && HashPrefix::text(33, false).is_none());
        let mut h = HashPrefix::text(6, false).unwrap().hasher();
        h.write(b"user42");
        let mut out = [b'-'; 8];
        h.finish_into(&mut out);
        assert_eq!(&out, b"fd8689--"); // only the first 6 bytes are written
        let mut h = HashPrefix::text(2, false).unwrap().hasher();
        h.write(b"user42");
        assert_eq!(&h.finish()[..8], b"fd8689cb");
    }
}
