//! Stand-ins for the Rust types whose size or variants a schema learns only from the lock: `[u8; N]`,
//! `Hashed<N>`, a user's own `KeyField` and a fieldless enum. Each writes and reads its bytes with
//! the codec of the type it stands for.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Debug;

use crate::codec::{put, take_into, unsupported_width, with_format, Format};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{DecodeField, FieldMode, FieldShape, KeyField};
use crate::hashed::Hashed;

/// A value as derived `Debug` shows it, already written out (a nested key).
pub(crate) struct Shown(pub(crate) String);

impl Debug for Shown {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A fieldless enum's variant as derived `Debug` shows it: its name.
pub(crate) struct Variant(pub(crate) &'static str);

impl Debug for Variant {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.0)
    }
}

/// Reads a `Hashed::<len>` with its own codec.
pub(crate) fn decode_hashed(
    input: &[u8],
    mode: FieldMode,
    len: usize,
) -> Result<(Digest, usize), DecodeError> {
    macro_rules! each {
        ($($len:literal)*) => {
            match len {
                $($len => Hashed::<$len>::decode_field(input, mode)
                    .map(|(h, n)| (Digest(h.as_bytes().to_vec()), n)),)*
                _ => Err(DecodeError::new(DecodeErrorKind::Invalid("a digest of no known size"), 0)),
            }
        };
    }
    each!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
}

/// `[u8; N]` of a length known at run time: written and read by the array codec's `put` and
/// `take_into`, with the same checks as `[u8; N]`.
#[derive(Clone)]
pub(crate) struct ByteArray(pub(crate) Vec<u8>);

/// As `[u8; N]` shows itself: `[1, 2, 3]`.
impl Debug for ByteArray {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

impl ByteArray {
    /// Reads `n` bytes as the array codec reads `[u8; n]`.
    pub(crate) fn decode(
        input: &[u8],
        mode: FieldMode,
        n: usize,
    ) -> Result<(ByteArray, usize), DecodeError> {
        let mut buf = alloc::vec![0u8; n];
        take_into(input, &mut buf, mode)?;
        Ok((ByteArray(buf), n))
    }
}

impl KeyField for ByteArray {
    const SHAPE: FieldShape = <[u8; 1] as KeyField>::SHAPE;

    fn field_len(&self, _mode: FieldMode) -> usize {
        self.0.len()
    }

    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        with_format!(mode.key_format(), F => F::fixed_bytes(mode))?;
        put(&self.0, out, mode)
    }
}

/// A user's own fixed-length type: its bytes as they stand in the key, whatever the mode.
#[derive(Clone)]
pub(crate) struct Opaque(pub(crate) Vec<u8>);

impl Debug for Opaque {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl Opaque {
    /// Reads the `n` bytes a user's type stands in, as they are.
    pub(crate) fn decode(input: &[u8], n: usize) -> Result<(Opaque, usize), DecodeError> {
        let mut buf = alloc::vec![0u8; n];
        take_into(input, &mut buf, FieldMode::INNER)?;
        Ok((Opaque(buf), n))
    }
}

impl KeyField for Opaque {
    const SHAPE: FieldShape = FieldShape::fixed(1);

    fn field_len(&self, _mode: FieldMode) -> usize {
        self.0.len()
    }

    fn encode(&self, out: &mut [u8], _mode: FieldMode) -> Result<usize, EncodeError> {
        put(&self.0, out, FieldMode::INNER)
    }
}

/// `Hashed<N>` of an `N` known at run time: each call goes to `Hashed::<N>`'s own codec.
#[derive(Clone)]
pub(crate) struct Digest(pub(crate) Vec<u8>);

impl Debug for Digest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Hashed(")?;
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))?;
        f.write_str(")")
    }
}

/// Calls `$body` with `$h`, the digest as a `Hashed::<N>` of its length.
macro_rules! hashed {
    ($bytes:expr, $n:expr, |$h:ident| $body:expr, $none:expr) => {
        hashed!(@ $bytes, $n, |$h| $body, $none; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    };
    (@ $bytes:expr, $n:expr, |$h:ident| $body:expr, $none:expr; $($len:literal)*) => {
        match $n {
            $($len => {
                let mut part = [0u8; $len];
                part.copy_from_slice(&$bytes[..$len]);
                let $h = Hashed::<$len>::from_bytes(part);
                $body
            })*
            _ => $none,
        }
    };
}

impl Digest {
    pub(crate) fn of(source: &[u8], n: usize) -> Digest {
        let digest = Hashed::<16>::of(source);
        Digest(digest.as_bytes()[..n.min(16)].to_vec())
    }
}

impl KeyField for Digest {
    const SHAPE: FieldShape = <Hashed<1> as KeyField>::SHAPE;

    fn field_len(&self, mode: FieldMode) -> usize {
        with_format!(mode.key_format(), F => F::digest_len(self.0.len()))
    }

    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        hashed!(
            self.0,
            self.0.len(),
            |h| h.encode(out, mode),
            Err(unsupported_width())
        )
    }
}

/// A fieldless enum's variant, by its discriminant: the derive's enum codec.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Discriminant(pub(crate) u8);

impl KeyField for Discriminant {
    const SHAPE: FieldShape = crate::codec::discriminant::ENUM_SHAPE;

    fn field_len(&self, mode: FieldMode) -> usize {
        crate::codec::discriminant::discriminant_len(mode)
    }

    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        crate::codec::discriminant::encode_discriminant(self.0, out, mode)
    }
}

impl<'k> DecodeField<'k> for Discriminant {
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        crate::codec::discriminant::decode_discriminant(input, mode)
            .map(|(d, n)| (Discriminant(d), n))
    }
}
