//! A salt: one leading bucket, computed from the key's sources so that sequential keys spread over
//! the regions of a pre-split table. This file is the one home of the salt's byte form: one byte
//! in binary layouts, zero-padded decimal digits in text layouts.

use md5::{Digest, Md5};

use crate::error::{DecodeError, DecodeErrorKind};
use crate::sink::ValueSink;

/// How a salt bucket is computed from its source bytes.
///
/// ```
/// use rowkey::{Salt, SaltHash};
/// let src = 1234u32.to_be_bytes(); // 00 00 04 D2
/// let bucket = |hash| Salt::new(16, hash).unwrap().bucket_of(&src);
/// assert_eq!(bucket(SaltHash::Mod), 2); // 1234 % 16
/// // Arrays.hashCode(new byte[] {0, 0, 4, -46}) is 923599, and 923599 % 16 is 15.
/// assert_eq!(bucket(SaltHash::Java), 15);
/// // md5(src) begins cf 9d ec 0b, and 0xCF9DEC0B % 16 is 0xB.
/// assert_eq!(bucket(SaltHash::Md5), 11);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SaltHash {
    /// `u32::from_be_bytes(md5(src)[0..4]) % N`: well spread for any source (the default).
    Md5,
    /// Apache Phoenix's `SaltingUtil` and OpenTSDB: `h` = Java `Arrays.hashCode` of the source as
    /// signed bytes (`h = 31 * h + b`, wrapping, starting at 1), bucket `abs(h % N)`.
    Java,
    /// The source, one unsigned integer, `% N`: the `timestamp % buckets` pattern.
    Mod,
}

impl SaltHash {
    /// Every bucket function with the name `salt(hash = "...")` gives it, the default first.
    ///
    /// ```
    /// use rowkey::SaltHash;
    /// assert_eq!(SaltHash::from_name("java"), Some(SaltHash::Java));
    /// assert_eq!(SaltHash::from_name("crc32"), None);
    /// assert_eq!(SaltHash::Mod.name(), "mod");
    /// ```
    pub const ALL: [SaltHash; 3] = [SaltHash::Md5, SaltHash::Java, SaltHash::Mod];

    /// The name `salt(hash = "...")` gives this function.
    pub const fn name(self) -> &'static str {
        match self {
            SaltHash::Md5 => "md5",
            SaltHash::Java => "java",
            SaltHash::Mod => "mod",
        }
    }

    /// The bucket function as a formula over the source bytes `src` and the bucket count `N`.
    ///
    /// ```
    /// use rowkey::SaltHash;
    /// assert_eq!(SaltHash::Mod.formula(), "src % N");
    /// ```
    pub const fn formula(self) -> &'static str {
        match self {
            SaltHash::Md5 => "u32::from_be_bytes(md5(src)[0..4]) % N",
            SaltHash::Java => "abs(Arrays.hashCode(src) % N) (Phoenix, OpenTSDB)",
            SaltHash::Mod => "src % N",
        }
    }

    /// The function named `name`, if any.
    pub fn from_name(name: &str) -> Option<SaltHash> {
        SaltHash::ALL.into_iter().find(|h| h.name() == name)
    }
}

/// A salt: a leading byte, the bucket `0..buckets` of the key's source bytes.
///
/// ```
/// use rowkey::{Salt, SaltHash};
/// let phoenix = Salt::new(3, SaltHash::Java).unwrap();
/// assert_eq!(phoenix.bucket_of(&[0x96, 0x00, 0xF6, 0x00, 0x13, 0xFE]), 2);
/// let md5 = Salt::new(16, SaltHash::Md5).unwrap();
/// assert!(md5.bucket_of(b"row1") < 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Salt {
    buckets: u16,
    hash: SaltHash,
    // A salt holds its own form rather than asking a key's format: it is used without a key
    // (`bucket_of`, `regions::split_points`), and is const data in a layout. Its four branches
    // on it (length, `mod`'s reading, writing, reading) move to the format's folders when a
    // prefix is written by the key's `Format`.
    text: bool,
}

impl Salt {
    /// The most buckets a salt can have: the bucket is stored in one byte.
    pub const MAX_BUCKETS: u16 = 256;

    /// A salt of `buckets` buckets (1..=256, so the bucket fits one byte); `None` otherwise.
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash};
    /// assert_eq!(Salt::new(256, SaltHash::Md5).map(Salt::buckets), Some(256));
    /// assert_eq!(Salt::new(1, SaltHash::Java).map(Salt::buckets), Some(1));
    /// assert!(Salt::new(0, SaltHash::Md5).is_none());
    /// assert!(Salt::new(257, SaltHash::Md5).is_none());
    /// ```
    pub const fn new(buckets: u16, hash: SaltHash) -> Option<Salt> {
        if buckets >= 1 && buckets <= Salt::MAX_BUCKETS {
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
    /// `mod` reading its source as decimal digits. A text layout's salt comes from its derive or
    /// its lock, never from a user; the derive reaches this through the hidden module.
    #[must_use]
    pub(crate) const fn in_text(self) -> Salt {
        Salt { text: true, ..self }
    }

    /// Whether the salt is written as decimal digits: the salt of a text layout.
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash};
    /// assert!(!Salt::new(20, SaltHash::Java).unwrap().is_text());
    /// ```
    pub const fn is_text(self) -> bool {
        self.text
    }

    /// The length of the salt in the key: one byte, or the digits of `buckets - 1` in text.
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash};
    /// let salt = |n| Salt::new(n, SaltHash::Md5).unwrap();
    /// assert_eq!(salt(256).encoded_len(), 1);
    /// ```
    pub const fn encoded_len(self) -> usize {
        if self.text {
            crate::num::digits_of((self.buckets - 1) as u128)
        } else {
            1
        }
    }

    /// The number of buckets.
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash};
    /// let salt = Salt::new(16, SaltHash::Md5).unwrap();
    /// assert_eq!(salt.buckets(), 16);
    /// assert!(salt.bucket_of(b"any source") < 16);
    /// ```
    pub const fn buckets(self) -> u16 {
        self.buckets
    }

    /// The bucket function.
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash};
    /// assert_eq!(Salt::new(16, SaltHash::Java).unwrap().hash(), SaltHash::Java);
    /// ```
    pub const fn hash(self) -> SaltHash {
        self.hash
    }

    /// The bucket of `src`.
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash};
    /// let java = Salt::new(8, SaltHash::Java).unwrap();
    /// // h = 31 * (31 * 1 + 'a') + 'b' = 4066, and 4066 % 8 = 2.
    /// assert_eq!(java.bucket_of(b"ab"), 2);
    /// // Bytes are signed: 0x80 is -128, h = 31 - 128 = -97; Java's -97 % 8 is -1, abs 1.
    /// assert_eq!(java.bucket_of(&[0x80]), 1);
    /// ```
    pub fn bucket_of(self, src: &[u8]) -> u8 {
        let mut h = self.hasher();
        h.write(src);
        h.finish()
    }

    /// An incremental bucket computation, for sources given in pieces.
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash, ValueSink};
    /// let salt = Salt::new(16, SaltHash::Md5).unwrap();
    /// let mut h = salt.hasher();
    /// h.write(b"user");
    /// h.write(b"42");
    /// // md5("user42") begins fd 86 89 cb; 0xFD8689CB % 16 = 0xB.
    /// assert_eq!(h.finish(), 11);
    /// assert_eq!(salt.bucket_of(b"user42"), 11);
    /// ```
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

    /// Writes `bucket` as it starts a key into `out`, which is [`encoded_len`](Salt::encoded_len)
    /// bytes: the byte itself, or its zero-padded decimal digits in a text layout.
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash};
    /// let mut out = [0u8; 1];
    /// Salt::new(16, SaltHash::Md5).unwrap().write_bucket(7, &mut out);
    /// assert_eq!(out[0], 7);
    /// ```
    #[inline]
    pub fn write_bucket(self, bucket: u8, out: &mut [u8]) {
        if self.text {
            let mut v = bucket;
            for slot in out.iter_mut().rev() {
                *slot = b'0' + v % 10;
                v /= 10;
            }
        } else if let Some(first) = out.first_mut() {
            *first = bucket;
        }
    }

    /// Reads the bucket from the start of a key (the [`encoded_len`](Salt::encoded_len) bytes of
    /// its prefix). Only the byte form is checked here: whether the bucket is the right one is the
    /// caller's question.
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash};
    /// assert_eq!(Salt::new(16, SaltHash::Md5).unwrap().read_bucket(&[3]).unwrap(), 3);
    /// ```
    pub fn read_bucket(self, prefix: &[u8]) -> Result<u8, DecodeError> {
        if !self.text {
            return prefix.first().copied().ok_or_else(|| {
                DecodeError::new(
                    DecodeErrorKind::Truncated {
                        needed: 1,
                        available: 0,
                    },
                    0,
                )
            });
        }
        let mut v: u16 = 0;
        for &b in prefix {
            if !b.is_ascii_digit() {
                return Err(DecodeError::new(
                    DecodeErrorKind::InvalidText("the salt is not decimal digits"),
                    0,
                ));
            }
            v = v.saturating_mul(10).saturating_add(u16::from(b - b'0'));
        }
        // Above 255 no salt of any layout: three digits where 256 buckets write 000 to 255.
        u8::try_from(v).map_err(|_| {
            DecodeError::new(
                DecodeErrorKind::InvalidText(
                    "the salt's digits are above 255, the last bucket a salt has",
                ),
                0,
            )
        })
    }
}

/// A salt bucket being computed; feed it the sources, then [`finish`](SaltHasher::finish).
///
/// ```
/// use rowkey::{FieldMode, KeyField, Salt, SaltHash};
/// // Two sources, a u16 and a u8, joined: 04 D2 then 07.
/// let mut h = Salt::new(10, SaltHash::Mod).unwrap().hasher();
/// 0x04D2u16.value_bytes(FieldMode::INNER, &mut h)?;
/// 7u8.value_bytes(FieldMode::LAST, &mut h)?;
/// assert_eq!(h.finish(), (0x04D207 % 10) as u8);
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Clone)]
pub struct SaltHasher {
    buckets: u16,
    state: SaltState,
}

impl core::fmt::Debug for SaltHasher {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SaltHasher")
            .field("buckets", &self.buckets)
            .finish_non_exhaustive()
    }
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
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash, ValueSink};
    /// let mut h = Salt::new(8, SaltHash::Java).unwrap().hasher();
    /// h.write(b"a");
    /// h.write(b"b");
    /// assert_eq!(h.finish(), 2); // Arrays.hashCode("ab".getBytes()) = 4066; 4066 % 8
    /// // Nothing written: Arrays.hashCode of no bytes is 1.
    /// assert_eq!(Salt::new(8, SaltHash::Java).unwrap().hasher().finish(), 1);
    /// ```
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

#[cfg(test)]
mod text_tests {
    use super::*;

    #[test]
    fn a_text_salt_is_zero_padded_decimal_digits_and_mod_reads_digits() {
        let salt = |n| Salt::new(n, SaltHash::Md5).unwrap().in_text();
        assert!(salt(20).is_text());
        assert_eq!(salt(10).encoded_len(), 1); // 0..9
        assert_eq!(salt(11).encoded_len(), 2); // 00..10
        assert_eq!(salt(256).encoded_len(), 3); // 000..255
        let modulo = Salt::new(16, SaltHash::Mod).unwrap().in_text();
        assert_eq!(modulo.hash(), SaltHash::Mod);
        // `mod` reads the source as decimal digits: "1234" % 16 = 2.
        assert_eq!(modulo.bucket_of(b"1234"), 2);
        let mut out = [0u8; 2];
        salt(16).write_bucket(7, &mut out);
        assert_eq!(&out, b"07");
        assert_eq!(salt(16).read_bucket(b"07").unwrap(), 7);
        assert!(salt(16).read_bucket(b"0x").is_err());
    }
}
