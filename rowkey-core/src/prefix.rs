//! The prefix component: one salt byte or an MD5 prefix in front of the key, computed from some of
//! its fields, so that sequential keys spread over the regions of a pre-split table instead of
//! piling onto the last one.
//!
//! A prefix only helps when it can be rebuilt: readers recompute it for a Get, decoders verify it,
//! and split points match it. Everything here works incrementally on the sources' value bytes (see
//! [`KeyField::value_bytes`](crate::KeyField::value_bytes)), so no source is copied.

use md5::{Digest, Md5};

/// Receives the value bytes of a prefix's source fields, in declaration order.
pub trait ValueSink {
    /// Appends `bytes` to the source.
    fn write(&mut self, bytes: &[u8]);
}

/// How a salt bucket is computed from its source bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SaltHash {
    /// `u32::from_be_bytes(md5(src)[0..4]) % N`: well spread for any source (the default).
    Md5,
    /// Apache Phoenix's `SaltingUtil` and OpenTSDB: `h` = Java `Arrays.hashCode` of the source as
    /// signed bytes (`h = 31 * h + b`, wrapping, starting at 1), bucket `abs(h % N)`.
    Java,
    /// The source, one unsigned integer, `% N`: the `timestamp % buckets` pattern.
    Mod,
}

/// A salt: a leading byte, the bucket `0..buckets` of the key's source bytes.
///
/// ```
/// use rowkey_core::{Salt, SaltHash};
/// let phoenix = Salt::new(3, SaltHash::Java).unwrap();
/// assert_eq!(phoenix.bucket_of(&[0x96, 0x00, 0xF6, 0x00, 0x13, 0xFE]), 2);
/// let md5 = Salt::new(16, SaltHash::Md5).unwrap();
/// assert!(md5.bucket_of(b"row1") < 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Salt {
    buckets: u16,
    hash: SaltHash,
    text: bool,
}

impl Salt {
    /// A salt of `buckets` buckets (1..=256, so the bucket fits one byte); `None` otherwise.
    pub const fn new(buckets: u16, hash: SaltHash) -> Option<Salt> {
        if buckets >= 1 && buckets <= 256 {
            Some(Salt {
                buckets,
                hash,
                text: false,
            })
        } else {
            None
        }
    }

    /// The same salt in a text layout: the bucket written as zero-padded decimal digits, and
    /// `mod` reading its source as decimal digits.
    #[must_use]
    pub const fn in_text(self) -> Salt {
        Salt { text: true, ..self }
    }

    /// Whether the salt is written as decimal digits.
    pub const fn is_text(self) -> bool {
        self.text
    }

    /// The length of the salt in the key: one byte, or the digits of `buckets - 1` in text.
    pub const fn encoded_len(self) -> usize {
        if self.text {
            crate::codec::text::digits_of((self.buckets - 1) as u128)
        } else {
            1
        }
    }

    /// The number of buckets.
    pub const fn buckets(self) -> u16 {
        self.buckets
    }

    /// The bucket function.
    pub const fn hash(self) -> SaltHash {
        self.hash
    }

    /// The bucket of `src`.
    pub fn bucket_of(self, src: &[u8]) -> u8 {
        let mut h = self.hasher();
        h.write(src);
        h.finish()
    }

    /// An incremental bucket computation, for sources given in pieces.
    pub fn hasher(self) -> SaltHasher {
        SaltHasher {
            buckets: self.buckets,
            state: match self.hash {
                SaltHash::Md5 => SaltState::Md5(Md5::new()),
                SaltHash::Java => SaltState::Java(1),
                SaltHash::Mod if self.text => SaltState::ModDecimal(0),
                SaltHash::Mod => SaltState::Mod(0),
            },
        }
    }
}

/// A salt bucket being computed; feed it the sources, then [`finish`](SaltHasher::finish).
#[derive(Clone)]
pub struct SaltHasher {
    buckets: u16,
    state: SaltState,
}

#[derive(Clone)]
enum SaltState {
    Md5(Md5),
    Java(i32),
    /// The big-endian number of the bytes so far, modulo the bucket count.
    Mod(u32),
    /// The decimal number of the digits so far, modulo the bucket count (text layouts).
    ModDecimal(u32),
}

impl ValueSink for SaltHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        match &mut self.state {
            SaltState::Md5(md5) => md5.update(bytes),
            SaltState::Java(h) => {
                for &b in bytes {
                    *h = h.wrapping_mul(31).wrapping_add(i32::from(b as i8));
                }
            }
            SaltState::Mod(rem) => {
                let n = u32::from(self.buckets);
                for &b in bytes {
                    *rem = (*rem * 256 + u32::from(b)) % n;
                }
            }
            SaltState::ModDecimal(rem) => {
                let n = u32::from(self.buckets);
                for &b in bytes.iter().filter(|b| b.is_ascii_digit()) {
                    *rem = (*rem * 10 + u32::from(b - b'0')) % n;
                }
            }
        }
    }
}

impl SaltHasher {
    /// The bucket, `0..buckets`.
    pub fn finish(self) -> u8 {
        let n = u32::from(self.buckets);
        let bucket = match self.state {
            SaltState::Md5(md5) => {
                let digest = md5.finalize();
                u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]) % n
            }
            // Java's % keeps the dividend's sign; abs after it (PHOENIX-1472) stays below n even
            // for Integer.MIN_VALUE.
            SaltState::Java(h) => (h % n as i32).unsigned_abs(),
            SaltState::Mod(rem) | SaltState::ModDecimal(rem) => rem,
        };
        bucket as u8
    }
}

/// An MD5 prefix: the first `len` bytes (1..=16) of MD5 over the sources.
///
/// ```
/// use rowkey_core::HashPrefix;
/// let mut out = [0u8; 3];
/// HashPrefix::new(3).unwrap().prefix_of(b"foo0001", &mut out);
/// assert_eq!(out, [0x95, 0xF1, 0x8C]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HashPrefix {
    len: u8,
    /// Text layouts: hex digits (`upper` for uppercase) instead of raw bytes.
    text: Option<bool>,
}

impl HashPrefix {
    /// A prefix of `len` bytes (1..=16); `None` otherwise.
    pub const fn new(len: usize) -> Option<HashPrefix> {
        if len >= 1 && len <= 16 {
            Some(HashPrefix {
                len: len as u8,
                text: None,
            })
        } else {
            None
        }
    }

    /// A text prefix of `len` hex digits (1..=32), uppercase when `upper`; `None` otherwise.
    pub const fn text(len: usize, upper: bool) -> Option<HashPrefix> {
        if len >= 1 && len <= 32 {
            Some(HashPrefix {
                len: len as u8,
                text: Some(upper),
            })
        } else {
            None
        }
    }

    /// Whether the prefix is hex digits.
    pub const fn is_text(self) -> bool {
        self.text.is_some()
    }

    /// Whether text hex digits are uppercase.
    pub const fn is_upper(self) -> bool {
        matches!(self.text, Some(true))
    }

    /// The prefix length in bytes (hex digits in text layouts).
    pub const fn prefix_len(self) -> usize {
        self.len as usize
    }

    /// Writes the prefix of `src` to `out[..len]` (`out` shorter than `len` takes what fits).
    pub fn prefix_of(self, src: &[u8], out: &mut [u8]) {
        let mut h = self.hasher();
        h.write(src);
        h.finish_into(out);
    }

    /// An incremental prefix computation, for sources given in pieces.
    pub fn hasher(self) -> HashPrefixHasher {
        HashPrefixHasher {
            len: self.len,
            text: self.text,
            md5: Md5::new(),
        }
    }
}

/// A hash prefix being computed; feed it the sources, then [`finish_into`](HashPrefixHasher::finish_into).
#[derive(Clone)]
pub struct HashPrefixHasher {
    len: u8,
    text: Option<bool>,
    md5: Md5,
}

impl ValueSink for HashPrefixHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.md5.update(bytes);
    }
}

impl HashPrefixHasher {
    /// Writes the prefix to `out[..len]` (`out` shorter than `len` takes what fits).
    pub fn finish_into(self, out: &mut [u8]) {
        let n = usize::from(self.len).min(out.len());
        let prefix = self.finish();
        out[..n].copy_from_slice(&prefix[..n]);
    }

    /// The prefix in a 32-byte array, of which the first `len` bytes count: digest bytes, or hex
    /// digits in text layouts.
    pub fn finish(self) -> [u8; 32] {
        let digest: [u8; 16] = self.md5.finalize().into();
        let mut out = [0u8; 32];
        match self.text {
            None => out[..16].copy_from_slice(&digest),
            Some(upper) => {
                let hex: &[u8; 16] = if upper {
                    b"0123456789ABCDEF"
                } else {
                    b"0123456789abcdef"
                };
                for (i, b) in digest.iter().enumerate() {
                    out[2 * i] = hex[usize::from(b >> 4)];
                    out[2 * i + 1] = hex[usize::from(b & 0xF)];
                }
            }
        }
        out
    }
}

/// The prefix component of a layout, as the compiler knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    pub const fn encoded_len(self) -> usize {
        match self {
            Prefix::None => 0,
            Prefix::Salt(s) => s.encoded_len(),
            Prefix::Hash(h) => h.prefix_len(),
        }
    }

    /// Whether there is no prefix.
    pub const fn is_none(self) -> bool {
        matches!(self, Prefix::None)
    }
}
