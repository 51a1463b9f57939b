//! The prefix component: one salt byte or an MD5 prefix in front of the key, computed from some of
//! its fields, so that sequential keys spread over the regions of a pre-split table instead of
//! piling onto the last one.
//!
//! A prefix only helps when it can be rebuilt: readers recompute it for a Get, decoders verify it,
//! and split points match it. Everything here works incrementally on the sources' value bytes (see
//! [`KeyField::value_bytes`](crate::KeyField::value_bytes)), so no source is copied.

use md5::{Digest, Md5};

/// Receives the value bytes of a prefix's source fields, in declaration order.
///
/// ```
/// use rowkey_core::{FieldMode, KeyField, ValueSink};
/// // A sink that only counts: a u64 gives 8 value bytes, a string its content.
/// struct Count(usize);
/// impl ValueSink for Count {
///     fn write(&mut self, bytes: &[u8]) { self.0 += bytes.len() }
/// }
/// let mut n = Count(0);
/// 42u64.value_bytes(FieldMode::INNER, &mut n)?;
/// "user".value_bytes(FieldMode::LAST, &mut n)?;
/// assert_eq!(n.0, 12);
/// # Ok::<(), rowkey_core::EncodeError>(())
/// ```
pub trait ValueSink {
    /// Appends `bytes` to the source.
    ///
    /// ```
    /// use rowkey_core::{Salt, SaltHash, ValueSink};
    /// // The `mod` bucket of the big-endian number 04 D2 (1234), given in two pieces.
    /// let mut h = Salt::new(16, SaltHash::Mod).unwrap().hasher();
    /// h.write(&[0x04]);
    /// h.write(&[0xD2]);
    /// assert_eq!(h.finish(), 2); // 1234 % 16
    /// ```
    fn write(&mut self, bytes: &[u8]);
}

/// How a salt bucket is computed from its source bytes.
///
/// ```
/// use rowkey_core::{Salt, SaltHash};
/// let src = 1234u32.to_be_bytes(); // 00 00 04 D2
/// let bucket = |hash| Salt::new(16, hash).unwrap().bucket_of(&src);
/// assert_eq!(bucket(SaltHash::Mod), 2); // 1234 % 16
/// // Arrays.hashCode(new byte[] {0, 0, 4, -46}) is 923599, and 923599 % 16 is 15.
/// assert_eq!(bucket(SaltHash::Java), 15);
/// // md5(src) begins cf 9d ec 0b, and 0xCF9DEC0B % 16 is 0xB.
/// assert_eq!(bucket(SaltHash::Md5), 11);
/// ```
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
    ///
    /// ```
    /// use rowkey_core::{Salt, SaltHash};
    /// assert_eq!(Salt::new(256, SaltHash::Md5).map(Salt::buckets), Some(256));
    /// assert_eq!(Salt::new(1, SaltHash::Java).map(Salt::buckets), Some(1));
    /// assert!(Salt::new(0, SaltHash::Md5).is_none());
    /// assert!(Salt::new(257, SaltHash::Md5).is_none());
    /// ```
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
    ///
    /// ```
    /// use rowkey_core::{Salt, SaltHash};
    /// let salt = Salt::new(16, SaltHash::Mod).unwrap().in_text();
    /// assert!(salt.is_text());
    /// assert_eq!(salt.encoded_len(), 2); // buckets 00..15
    /// // `mod` reads the source as decimal digits: "1234" % 16 = 2.
    /// assert_eq!(salt.bucket_of(b"1234"), 2);
    /// ```
    #[must_use]
    pub const fn in_text(self) -> Salt {
        Salt { text: true, ..self }
    }

    /// Whether the salt is written as decimal digits.
    ///
    /// ```
    /// use rowkey_core::{Salt, SaltHash};
    /// let salt = Salt::new(20, SaltHash::Java).unwrap();
    /// assert!(!salt.is_text());
    /// assert!(salt.in_text().is_text());
    /// ```
    pub const fn is_text(self) -> bool {
        self.text
    }

    /// The length of the salt in the key: one byte, or the digits of `buckets - 1` in text.
    ///
    /// ```
    /// use rowkey_core::{Salt, SaltHash};
    /// let salt = |n| Salt::new(n, SaltHash::Md5).unwrap();
    /// assert_eq!(salt(256).encoded_len(), 1);
    /// assert_eq!(salt(10).in_text().encoded_len(), 1);  // 0..9
    /// assert_eq!(salt(11).in_text().encoded_len(), 2);  // 00..10
    /// assert_eq!(salt(256).in_text().encoded_len(), 3); // 000..255
    /// ```
    pub const fn encoded_len(self) -> usize {
        if self.text {
            crate::codec::text::digits_of((self.buckets - 1) as u128)
        } else {
            1
        }
    }

    /// The number of buckets.
    ///
    /// ```
    /// use rowkey_core::{Salt, SaltHash};
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
    /// use rowkey_core::{Salt, SaltHash};
    /// assert_eq!(Salt::new(16, SaltHash::Java).unwrap().hash(), SaltHash::Java);
    /// assert_eq!(Salt::new(16, SaltHash::Mod).unwrap().in_text().hash(), SaltHash::Mod);
    /// ```
    pub const fn hash(self) -> SaltHash {
        self.hash
    }

    /// The bucket of `src`.
    ///
    /// ```
    /// use rowkey_core::{Salt, SaltHash};
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
    /// use rowkey_core::{Salt, SaltHash, ValueSink};
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
}

/// A salt bucket being computed; feed it the sources, then [`finish`](SaltHasher::finish).
///
/// ```
/// use rowkey_core::{FieldMode, KeyField, Salt, SaltHash};
/// // Two sources, a u16 and a u8, joined: 04 D2 then 07.
/// let mut h = Salt::new(10, SaltHash::Mod).unwrap().hasher();
/// 0x04D2u16.value_bytes(FieldMode::INNER, &mut h)?;
/// 7u8.value_bytes(FieldMode::LAST, &mut h)?;
/// assert_eq!(h.finish(), (0x04D207 % 10) as u8);
/// # Ok::<(), rowkey_core::EncodeError>(())
/// ```
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
    ///
    /// ```
    /// use rowkey_core::{Salt, SaltHash, ValueSink};
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
    ///
    /// ```
    /// use rowkey_core::HashPrefix;
    /// assert_eq!(HashPrefix::new(16).map(HashPrefix::prefix_len), Some(16));
    /// assert!(HashPrefix::new(0).is_none());
    /// assert!(HashPrefix::new(17).is_none()); // longer than an MD5 digest
    /// ```
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
    ///
    /// ```
    /// use rowkey_core::HashPrefix;
    /// let mut out = [0u8; 6];
    /// // DESIGN: `id = "user42"` with `hash_prefix(len = 6)` in a text layout is `fd8689-user42`.
    /// HashPrefix::text(6, false).unwrap().prefix_of(b"user42", &mut out);
    /// assert_eq!(&out, b"fd8689");
    /// assert!(HashPrefix::text(32, true).is_some());
    /// assert!(HashPrefix::text(33, false).is_none());
    /// ```
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
    ///
    /// ```
    /// use rowkey_core::HashPrefix;
    /// assert!(HashPrefix::text(6, false).unwrap().is_text());
    /// assert!(!HashPrefix::new(6).unwrap().is_text());
    /// ```
    pub const fn is_text(self) -> bool {
        self.text.is_some()
    }

    /// Whether text hex digits are uppercase.
    ///
    /// ```
    /// use rowkey_core::HashPrefix;
    /// let upper = HashPrefix::text(6, true).unwrap();
    /// assert!(upper.is_upper());
    /// let mut out = [0u8; 6];
    /// upper.prefix_of(b"user42", &mut out);
    /// assert_eq!(&out, b"FD8689");
    /// assert!(!HashPrefix::text(6, false).unwrap().is_upper());
    /// ```
    pub const fn is_upper(self) -> bool {
        matches!(self.text, Some(true))
    }

    /// The prefix length in bytes (hex digits in text layouts).
    ///
    /// ```
    /// use rowkey_core::HashPrefix;
    /// assert_eq!(HashPrefix::new(4).unwrap().prefix_len(), 4);
    /// assert_eq!(HashPrefix::text(32, false).unwrap().prefix_len(), 32); // all of md5 in hex
    /// ```
    pub const fn prefix_len(self) -> usize {
        self.len as usize
    }

    /// Writes the prefix of `src` to `out[..len]` (`out` shorter than `len` takes what fits).
    ///
    /// ```
    /// use rowkey_core::HashPrefix;
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
    /// use rowkey_core::{HashPrefix, ValueSink};
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
/// use rowkey_core::{FieldMode, HashPrefix, KeyField};
/// // A string source gives its content: the prefix of "user42" in 2 bytes.
/// let mut h = HashPrefix::new(2).unwrap().hasher();
/// "user42".value_bytes(FieldMode::INNER, &mut h)?;
/// let mut out = [0u8; 2];
/// h.finish_into(&mut out);
/// assert_eq!(out, [0xFD, 0x86]);
/// # Ok::<(), rowkey_core::EncodeError>(())
/// ```
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
    ///
    /// ```
    /// use rowkey_core::{HashPrefix, ValueSink};
    /// let mut h = HashPrefix::text(6, false).unwrap().hasher();
    /// h.write(b"user42");
    /// let mut out = [b'-'; 8];
    /// h.finish_into(&mut out);
    /// assert_eq!(&out, b"fd8689--"); // only the first 6 bytes are written
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
    /// use rowkey_core::{HashPrefix, ValueSink};
    /// let mut h = HashPrefix::new(2).unwrap().hasher();
    /// h.write(b"user42");
    /// let digest = h.finish();
    /// assert_eq!(digest[..4], [0xFD, 0x86, 0x89, 0xCB]); // the whole md5 is there; 2 bytes count
    /// let mut h = HashPrefix::text(2, false).unwrap().hasher();
    /// h.write(b"user42");
    /// assert_eq!(&h.finish()[..8], b"fd8689cb");
    /// ```
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
///
/// ```
/// use rowkey_core::{HashPrefix, Prefix, Salt, SaltHash};
/// let salt = Prefix::Salt(Salt::new(16, SaltHash::Md5).unwrap());
/// let hash = Prefix::Hash(HashPrefix::new(4).unwrap());
/// assert_eq!(Prefix::None.encoded_len(), 0);
/// assert_eq!(salt.encoded_len(), 1);
/// assert_eq!(hash.encoded_len(), 4);
/// ```
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
    ///
    /// ```
    /// use rowkey_core::{HashPrefix, Prefix, Salt, SaltHash};
    /// let text_salt = Salt::new(100, SaltHash::Java).unwrap().in_text();
    /// assert_eq!(Prefix::Salt(text_salt).encoded_len(), 2); // 00..99
    /// assert_eq!(Prefix::Hash(HashPrefix::text(6, false).unwrap()).encoded_len(), 6);
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
    /// use rowkey_core::{HashPrefix, Prefix};
    /// assert!(Prefix::None.is_none());
    /// assert!(!Prefix::Hash(HashPrefix::new(1).unwrap()).is_none());
    /// ```
    pub const fn is_none(self) -> bool {
        matches!(self, Prefix::None)
    }
}
