//! A long value replaced in the key by its digest: `Hashed<N>` holds the first `N` bytes of MD5 of
//! a value, as the HBase book's `[md5(hostname)][md5(event type)][timestamp]` row key does. The key
//! keeps the digest's fixed length whatever the value's, and spreads values evenly; a scan binds
//! the field with the digest of the value it looks for. Binary layouts write the `N` bytes; text
//! layouts `2N` lowercase hex digits, which sort as the bytes do.
//!
//! ```
//! use rowkey::Hashed;
//!
//! // `echo -n myserver1.mycompany.com | md5sum` prints 158c93e0eca9fd1206753a1972c261ed.
//! let host = Hashed::<4>::of("myserver1.mycompany.com");
//! assert_eq!(host.as_bytes(), &[0x15, 0x8c, 0x93, 0xe0]);
//! assert_eq!(host.to_string(), "158c93e0");
//! ```

use core::fmt;

use md5::{Digest, Md5};

use crate::codec::{unsupported_width, with_format, Format};
use crate::error::{DecodeError, EncodeError};
use crate::field::{DecodeField, FieldMode, FieldShape, Form, KeyField};
use crate::hex;
use crate::prefix::HashPrefix;

/// The first `N` bytes (1 to 16) of MD5 of a value, in place of the value: N bytes in binary
/// layouts, 2N lowercase hex digits in text layouts (`desc`: the digest inverted). Scans bind it
/// with the digest of the value they look for.
///
/// ```
/// use rowkey::Hashed;
/// // `echo -n login | md5sum` prints d56b699830e77ba53855679cb1d252da.
/// assert_eq!(Hashed::<2>::of("login").as_bytes(), &[0xd5, 0x6b]);
/// assert_eq!(format!("{:?}", Hashed::<3>::of("login")), "Hashed(d56b69)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hashed<const N: usize>([u8; N]);

impl<const N: usize> Hashed<N> {
    /// Refuses `Hashed<0>` and `Hashed<17>` and above when the type is used: MD5 has 16 bytes.
    const DIGEST_PART: () = assert!(
        N >= 1 && N <= HashPrefix::MAX_LEN,
        "Hashed<N> keeps 1 to 16 bytes of MD5"
    );

    /// The first `N` bytes of MD5 of `value`'s bytes.
    ///
    /// ```
    /// use rowkey::Hashed;
    /// let full = Hashed::<16>::of(b"login");
    /// let short = Hashed::<2>::of("login");
    /// assert_eq!(short.as_bytes()[..], full.as_bytes()[..2]);
    /// ```
    pub fn of(value: impl AsRef<[u8]>) -> Self {
        let () = Self::DIGEST_PART;
        let digest: [u8; 16] = Md5::digest(value.as_ref()).into();
        let mut part = [0u8; N];
        part.copy_from_slice(&digest[..N]);
        Hashed(part)
    }

    /// The digest bytes as they are, for a digest computed elsewhere.
    ///
    /// ```
    /// use rowkey::Hashed;
    /// let h = Hashed::<4>::of("x");
    /// assert_eq!(Hashed::from_bytes(*h.as_bytes()), h);
    /// ```
    pub const fn from_bytes(bytes: [u8; N]) -> Self {
        let () = Self::DIGEST_PART;
        Hashed(bytes)
    }

    /// The digest bytes.
    pub const fn as_bytes(&self) -> &[u8; N] {
        &self.0
    }
}

/// The digest in lowercase hex, as `md5sum` prints it.
impl<const N: usize> fmt::Display for Hashed<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = [0u8; 32];
        hex::write(&self.0, &mut text[..2 * N], hex::LOWER);
        // Hex digits are ASCII.
        f.write_str(core::str::from_utf8(&text[..2 * N]).unwrap_or_default())
    }
}

impl<const N: usize> fmt::Debug for Hashed<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hashed({self})")
    }
}

impl<const N: usize> KeyField for Hashed<N> {
    const SHAPE: FieldShape = {
        let () = Self::DIGEST_PART;
        FieldShape::fixed(N)
            .with_text_chars(2 * N)
            .with_form(Form::Digest)
    };

    #[inline]
    fn field_len(&self, mode: FieldMode) -> usize {
        with_format!(mode.key_format(), F => F::digest_len(N))
    }

    #[inline]
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        if mode.width().is_some() {
            return Err(unsupported_width());
        }
        with_format!(mode.key_format(), F => F::encode_digest(&self.0, out, mode))
    }
}

impl<'k, const N: usize> DecodeField<'k> for Hashed<N> {
    #[inline]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        let mut bytes = [0u8; N];
        let n = with_format!(mode.key_format(), F => F::decode_digest(input, &mut bytes, mode))?;
        Ok((Hashed(bytes), n))
    }
}
