//! Hand-written keys for the examples of the key traits (`RowKey`, `DecodeKey`, `SaltedKey`...),
//! which cannot use `#[derive(RowKey)]` from inside this crate. Written once here instead of in
//! every example. Not a public API.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{DecodeField, FieldMode, KeyField};
use crate::key::{DecodeKey, DecodeSaltedKey, RowKey, SaltedKey};
use crate::prefix::{Prefix, Salt, SaltHash};

/// One `u32` field: always 4 bytes.
#[derive(Debug, PartialEq)]
pub struct Id(pub u32);

impl RowKey for Id {
    const FIXED_LEN: Option<usize> = <u32 as KeyField>::SHAPE.fixed_len(FieldMode::LAST);
    const MAX_LEN: Option<usize> = <u32 as KeyField>::SHAPE.max_len(FieldMode::LAST);
    fn encoded_len(&self) -> usize {
        self.0.field_len(FieldMode::LAST)
    }
    fn encode_into(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        self.0.encode(out, FieldMode::LAST)
    }
}

/// One `Option<u32>` field: 1 or 5 bytes.
#[derive(Debug, PartialEq)]
pub struct MaybeId(pub Option<u32>);

impl RowKey for MaybeId {
    const FIXED_LEN: Option<usize> = <Option<u32> as KeyField>::SHAPE.fixed_len(FieldMode::LAST);
    const MAX_LEN: Option<usize> = <Option<u32> as KeyField>::SHAPE.max_len(FieldMode::LAST);
    fn encoded_len(&self) -> usize {
        self.0.field_len(FieldMode::LAST)
    }
    fn encode_into(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        self.0.encode(out, FieldMode::LAST)
    }
}

/// The salt of [`Seq`]: 4 buckets, `seq % 4`.
pub const SEQ_SALT: Salt = match Salt::new(4, SaltHash::Mod) {
    Some(s) => s,
    None => panic!("4 buckets"),
};

/// A `u32` behind a one-byte salt, `seq % 4`.
#[derive(Debug, PartialEq)]
pub struct Seq(pub u32);

impl RowKey for Seq {
    const FIXED_LEN: Option<usize> = Some(5);
    const MAX_LEN: Option<usize> = Some(5);
    const PREFIX: Prefix = Prefix::Salt(SEQ_SALT);
    fn encoded_len(&self) -> usize {
        5
    }
    fn encode_into(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        self.encode_into_bucket(SEQ_SALT.bucket_of(&self.0.to_be_bytes()), out)
    }
}

impl SaltedKey for Seq {
    const BUCKETS: u16 = 4;
    fn encode_into_bucket(&self, bucket: u8, out: &mut [u8]) -> Result<usize, EncodeError> {
        if bucket >= 4 {
            return Err(EncodeErrorKind::BucketOutOfRange { bucket, buckets: 4 }.into());
        }
        let Some((salt, rest)) = out.split_first_mut() else {
            return Err(EncodeErrorKind::BufferTooSmall {
                needed: 5,
                available: 0,
            }
            .into());
        };
        *salt = bucket;
        Ok(1 + self.0.encode(rest, FieldMode::LAST)?)
    }
}

impl<'k> DecodeKey<'k> for Seq {
    fn decode(key: &'k [u8]) -> Result<Self, DecodeError> {
        let (seq, found) = Seq::decode_any_bucket(key)?;
        let expected = SEQ_SALT.bucket_of(&seq.0.to_be_bytes());
        if found != expected {
            return Err(DecodeError::new(
                DecodeErrorKind::WrongSalt { expected, found },
                0,
            ));
        }
        Ok(seq)
    }
}

impl<'k> DecodeSaltedKey<'k> for Seq {
    fn decode_any_bucket(key: &'k [u8]) -> Result<(Self, u8), DecodeError> {
        let Some((&bucket, rest)) = key.split_first() else {
            return Err(DecodeError::new(
                DecodeErrorKind::Truncated {
                    needed: 5,
                    available: 0,
                },
                0,
            ));
        };
        if bucket >= 4 {
            return Err(DecodeError::new(
                DecodeErrorKind::BucketOutOfRange { bucket, buckets: 4 },
                0,
            ));
        }
        let (seq, n) =
            u32::decode_field(rest, FieldMode::LAST).map_err(|e| e.in_field("Seq", "seq", 1))?;
        match rest.len() - n {
            0 => Ok((Seq(seq), bucket)),
            count => Err(DecodeError::new(
                DecodeErrorKind::TrailingBytes { count },
                1 + n,
            )),
        }
    }
}

/// `Host { name: String, port: u16 }`: the name escaped, since the port follows it.
#[cfg(feature = "alloc")]
#[derive(Debug, PartialEq)]
pub struct Host {
    pub name: alloc::string::String,
    pub port: u16,
}

#[cfg(feature = "alloc")]
impl RowKey for Host {
    const FIXED_LEN: Option<usize> = None;
    const MAX_LEN: Option<usize> = None;
    fn encoded_len(&self) -> usize {
        self.name.field_len(FieldMode::INNER) + self.port.field_len(FieldMode::LAST)
    }
    fn encode_into(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        let n = self.name.encode(out, FieldMode::INNER)?;
        Ok(n + self
            .port
            .encode(out.get_mut(n..).unwrap_or_default(), FieldMode::LAST)?)
    }
}

#[cfg(feature = "alloc")]
impl<'k> DecodeKey<'k> for Host {
    fn decode(key: &'k [u8]) -> Result<Self, DecodeError> {
        let (name, n) = alloc::string::String::decode_field(key, FieldMode::INNER)?;
        let (port, m) = u16::decode_field(&key[n..], FieldMode::LAST)?;
        match key.len() - n - m {
            0 => Ok(Host { name, port }),
            count => Err(DecodeError::new(
                DecodeErrorKind::TrailingBytes { count },
                n + m,
            )),
        }
    }
}
